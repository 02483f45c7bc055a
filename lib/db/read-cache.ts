// Process cache of one read-only statement's rows on the embedded database, exact without any
// revalidation: an entry is used only while PGlite's write generation is the one it was read at
// (lib/db/pglite-writes.ts), so any statement that could have changed it, by any code path, drops
// every entry before the next read. On Postgres (other instances write) every read asks the
// database, as without the cache.
//
// Like the credential caches (credential-cache.ts): only found rows are kept, so guessing keys
// cannot fill it, and its size is bounded anyway (least recently used dropped). Rows are frozen:
// a caller that changed one would change every later answer.
import type { PGlite } from "@electric-sql/pglite";
import { LruMap } from "../lru-map";
import { dbHandle } from "./client";
import { writeGeneration } from "./pglite-writes";
import { rawQuery } from "./raw";

export interface ReadCache<T> {
  /** The statement's rows for these parameters: from memory when nothing was written since they were read. */
  read(params: readonly string[]): Promise<readonly T[]>;
  /** Entries held for the current database (tests). */
  stats(): { entries: number };
}

export interface ReadCacheOptions {
  /** The named statement's name (one per statement text, as rawQuery's `name`). */
  name: string;
  /** One SELECT: it must change nothing, since its executions do not move the write generation. */
  sql: string;
  maxEntries: number;
}

interface State {
  generation: number;
  entries: LruMap<string, readonly unknown[]>;
}

// Next.js bundles each route separately; routes that read the same statement share its entries.
const slot = globalThis as typeof globalThis & { __schoolhouseReadCaches?: Map<string, WeakMap<PGlite, State>> };

export function createReadCache<T>(options: ReadCacheOptions): ReadCache<T> {
  const { name, sql, maxEntries } = options;
  if (!/^\s*SELECT\b/i.test(sql) || sql.includes(";")) throw new Error(`read cache "${name}": the statement must be one SELECT`);
  const registry = (slot.__schoolhouseReadCaches ??= new Map());
  let states = registry.get(name);
  if (!states) registry.set(name, (states = new WeakMap()));
  const byInstance = states;

  /** The entries valid at `generation` (all of them are dropped when it moved). */
  function stateAt(pglite: PGlite, generation: number): State {
    let state = byInstance.get(pglite);
    if (!state) byInstance.set(pglite, (state = { generation, entries: new LruMap(maxEntries) }));
    if (state.generation !== generation) {
      state.entries.clear();
      state.generation = generation;
    }
    return state;
  }

  async function read(params: readonly string[]): Promise<readonly T[]> {
    const { driver } = dbHandle();
    const pglite = driver.kind === "pglite" ? driver.pglite : null;
    const before = pglite ? writeGeneration(pglite) : null;
    if (!pglite || before === null) return rawQuery<T>(sql, [...params], { name });
    const key = params.length === 1 ? params[0]! : JSON.stringify(params);
    const cached = stateAt(pglite, before).entries;
    const hit = cached.get(key);
    if (hit) return hit as readonly T[];
    const rows = await rawQuery<T>(sql, [...params], { name, readOnly: true });
    // Kept only when nothing else ran between the generation read above and now: then the rows are
    // what the database holds at that generation.
    if (rows.length > 0 && writeGeneration(pglite) === before) {
      stateAt(pglite, before).entries.set(key, Object.freeze(rows.map((row) => Object.freeze(row))));
    }
    return rows;
  }

  return {
    read,
    stats() {
      const { driver } = dbHandle();
      if (driver.kind !== "pglite") return { entries: 0 };
      const state = byInstance.get(driver.pglite);
      return { entries: state && state.generation === writeGeneration(driver.pglite) ? state.entries.size : 0 };
    },
  };
}
