// Every statement Prisma sends to the embedded database, prepared once and from then on only bound.
//
// Prisma's PGlite adapter runs each statement through `query()`, which parses, analyses and plans
// it on every call and takes six trips into the database (Parse, Describe, Bind, Describe, Execute,
// Sync). Prisma sends the same few hundred texts over and over (its SQL carries values only as
// parameters), so the embedded session keeps them as named statements, as a pg driver with a
// statement cache does (postgres.js, pgx, JDBC): the first call parses and describes, every later
// one is one trip with Bind, Execute and Sync. An embedded update's statements cost 1.2-2.1 ms each
// unnamed inside its transaction against ~0.4 ms named (docs/benchmarks.md, "The embedded database").
//
// The session is handed to Prisma's adapter in place of the PGlite instance: the adapter keeps its
// own argument mapping, result parsers and error conversion, and only `query` (outside and inside a
// transaction) takes the prepared path.
//
// - Outside a transaction a statement runs under PGlite's transaction lock and protocol lock, as
//   `query()` does, so it never lands inside somebody else's open transaction. Inside one, under the
//   protocol lock only, as the transaction's own `query()` does: the transaction holds the other.
// - Prepared statements belong to the session, not to a transaction: one prepared inside a
//   transaction that rolls back stays prepared (Postgres's rule). A statement that fails to parse is
//   not kept; one that fails to run stays, except when Postgres says its plan no longer fits the
//   schema (SQLSTATE 0A000, "cached plan must not change result type"), which drops it so the next
//   call prepares it afresh.
// - At most CAPACITY statements are kept, least recently used first out, closed in Postgres when
//   they leave: each holds its parse tree and plans in the database's memory, which never shrinks.
import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import { prepare, runPrepared, send, type BackendMessage, type PreparedStatement } from "./pglite-prepared";

/** Statements kept per instance (each server of a quick bench run prepared 15 to 89 distinct texts). */
export const CAPACITY = 256;

const FEATURE_NOT_SUPPORTED = "0A000";

class StatementCache {
  /** By text, least recently used first (a Map keeps insertion order). */
  readonly byText = new Map<string, PreparedStatement>();
  /** Statements that left the cache and are still to be closed in Postgres. */
  readonly toClose: string[] = [];
  private next = 0;

  constructor(readonly capacity: number) {}

  get(text: string): PreparedStatement | undefined {
    const statement = this.byText.get(text);
    if (statement) {
      this.byText.delete(text);
      this.byText.set(text, statement);
    }
    return statement;
  }

  /** A name no statement of this cache has had (names never come back, so a late Close is harmless). */
  nextName(): string {
    return `prisma_${(this.next++).toString(36)}`;
  }

  add(statement: PreparedStatement): void {
    this.byText.set(statement.text, statement);
    while (this.byText.size > this.capacity) {
      const [oldest] = this.byText.values();
      this.drop(oldest!);
    }
  }

  drop(statement: PreparedStatement): void {
    if (this.byText.get(statement.text) === statement) this.byText.delete(statement.text);
    this.toClose.push(statement.name);
  }
}

const caches = new WeakMap<PGlite, StatementCache>();

function cacheOf(pglite: PGlite, capacity: number): StatementCache {
  let cache = caches.get(pglite);
  if (!cache) caches.set(pglite, (cache = new StatementCache(capacity)));
  return cache;
}

/** The texts this instance holds prepared, least recently used first (tests read it). */
export function cachedStatementTexts(pglite: PGlite): string[] {
  return [...(caches.get(pglite)?.byText.keys() ?? [])];
}

/** Runs `text` as a cached prepared statement. The caller holds the protocol lock. */
async function runCached<T>(
  pglite: PGlite,
  cache: StatementCache,
  text: string,
  params: unknown[],
  options: QueryOptions | undefined,
  inTransaction: boolean,
): Promise<Results<T>> {
  let statement: PreparedStatement | undefined;
  let messages: BackendMessage[];
  try {
    messages = await runPrepared(
      pglite,
      async (into) => {
        while (cache.toClose.length > 0) await send(pglite, protocol.serialize.close({ type: "S", name: cache.toClose.shift()! }), []);
        statement = cache.get(text);
        if (statement) return statement;
        const name = cache.nextName();
        try {
          statement = await prepare(pglite, name, text, into);
        } catch (err) {
          // Whatever part of it Postgres kept goes with the next call's closes.
          cache.toClose.push(name);
          throw err;
        }
        cache.add(statement);
        return statement;
      },
      params,
      options?.serializers,
    );
  } catch (err) {
    if (statement && (err as { code?: unknown }).code === FEATURE_NOT_SUPPORTED) cache.drop(statement);
    throw err;
  }
  // As query() ends an autocommit statement (a no-op on the Node file system, which writes through
  // at once); a transaction's statements are written by its COMMIT.
  if (!inTransaction) await pglite.syncToFs();
  const [result] = parse.parseResults(messages, pglite.parsers, options);
  return (result ?? { rows: [], fields: [] }) as Results<T>;
}

/** The transaction `tx` of `pglite`, with its statements prepared once. */
function cachedTransaction(pglite: PGlite, cache: StatementCache, tx: Transaction): Transaction {
  return {
    query: async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
      if (tx.closed) throw new Error("Transaction is closed");
      return pglite.runExclusive(() => runCached<T>(pglite, cache, text, params, options, true));
    },
    sql: (strings, ...params) => tx.sql(strings, ...params),
    exec: (text, options) => tx.exec(text, options),
    rollback: () => tx.rollback(),
    listen: (channel, callback) => tx.listen(channel, callback),
    get closed() {
      return tx.closed;
    },
  };
}

/**
 * `pglite` as Prisma's PGlite adapter uses it (`query`, `exec`, `transaction`), with every
 * statement prepared once per instance.
 */
export function pgliteWithStatementCache(pglite: PGlite, capacity = CAPACITY): PGlite {
  const cache = cacheOf(pglite, capacity);
  const session: Pick<PGlite, "query" | "exec" | "transaction"> = {
    query: async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
      await pglite._checkReady();
      return pglite._runExclusiveTransaction(() =>
        pglite.runExclusive(() => runCached<T>(pglite, cache, text, params, options, false)),
      );
    },
    exec: (text, options) => pglite.exec(text, options),
    transaction: (callback) => pglite.transaction((tx) => callback(cachedTransaction(pglite, cache, tx))),
  };
  // The adapter touches only these three; the cast says so instead of wrapping all of PGlite.
  return session as PGlite;
}
