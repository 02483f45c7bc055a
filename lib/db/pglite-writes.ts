// The embedded database's write generation: a number that changes whenever anything could have
// changed what a read returns, so a process cache of reads is exact without asking the database.
//
// PGlite is a database inside this process and no other (the data directory's lock, driver.ts), and
// every statement anyone sends it (query(), exec(), transaction(), Prisma's adapter, the named
// statements of pglite-prepared.ts, the migrator) ends in one method, `execProtocolRawSync`. So
// wrapping that method sees every possible write. The generation moves on every call into it except
// one kind: the execution of a named statement this process declared read-only (Bind, Execute,
// Sync of a plain SELECT, pglite-prepared.ts), which changes nothing. Everything else counts as a
// write, reads through Prisma and BEGIN/COMMIT included: too many changes only cost a cache miss.
//
// A cache entry made from a read is used only while the generation is the one it was read at
// (lib/db/read-cache.ts); Postgres has no such number (other instances write to it), so there the
// generation is null and nothing is cached.
import type { PGlite } from "@electric-sql/pglite";

interface Watch {
  generation: number;
  /** Named statements that only read (their name as the bytes a Bind message carries it). */
  readOnly: Set<string>;
}

// On the instance itself: Next.js bundles each route's modules separately, and the driver that
// starts watching (instrumentation) and the caches that read the generation (routes) must agree.
const WATCH = Symbol.for("schoolhouse.pglite-writes");
type Watched = PGlite & { [WATCH]?: Watch };

// The frontend message a read-only execution starts with: Bind ('B'), its length, the portal's name
// (unnamed: one NUL), then the statement's name up to its NUL.
const BIND = 0x42;
const decoder = new TextDecoder();

function boundStatement(message: Uint8Array): string | null {
  if (message[0] !== BIND || message.length < 6) return null;
  let at = 5;
  while (at < message.length && message[at] !== 0) at++; // the portal's name
  const start = ++at;
  while (at < message.length && message[at] !== 0) at++;
  return at < message.length ? decoder.decode(message.subarray(start, at)) : null;
}

/** Starts counting this instance's writes (once per instance; createDbHandle calls it). */
export function watchWrites(pglite: PGlite): void {
  const target = pglite as Watched;
  if (target[WATCH]) return;
  const watch: Watch = { generation: 0, readOnly: new Set() };
  target[WATCH] = watch;
  const execute = pglite.execProtocolRawSync.bind(pglite);
  pglite.execProtocolRawSync = (message: Uint8Array) => {
    const statement = boundStatement(message);
    if (statement === null || !watch.readOnly.has(statement)) watch.generation++;
    return execute(message);
  };
}

/** The instance's write generation, or null when its writes are not watched (nothing may be cached). */
export function writeGeneration(pglite: PGlite): number | null {
  return (pglite as Watched)[WATCH]?.generation ?? null;
}

/**
 * Declares the named statement `name` read-only on this instance: its executions leave the
 * generation as it is. Only for a statement that is one SELECT calling no function that writes; the
 * name stays bound to its first text (pgliteQueryNamed refuses another).
 */
export function declareReadOnly(pglite: PGlite, name: string): void {
  (pglite as Watched)[WATCH]?.readOnly.add(name);
}
