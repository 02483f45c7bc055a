import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "../env";
import { closeDriver, createPgDriver, createPgliteDriver, type Driver } from "./driver";
import { FairGate } from "./fair-gate";
import { gatedAdapterFactory, type StatementListener } from "./gated-adapter";
import { PrismaClient } from "./generated/client";
import { pgliteWithStatementCache } from "./pglite-statement-cache";
import { watchWrites } from "./pglite-writes";

export type Db = PrismaClient;
export interface DbHandle {
  prisma: PrismaClient;
  driver: Driver;
  /** Shares the connections between credentials (lib/db/fair-gate.ts). */
  gate: FairGate;
  /** Called for every statement the client sends (tests count statements per lane). */
  onStatement(listener: StatementListener): () => void;
  /** Tells the listeners of a statement sent outside Prisma (the raw driver's, lib/db/raw.ts). */
  noteStatement(statement: Parameters<StatementListener>[0]): void;
}

/**
 * Fraction of the connections one credential may hold at once: with the default pool of 10, a key
 * uses at most 4 and 6 stay free for every other caller (docs/decisions.md, "Fairness between credentials").
 */
export const CREDENTIAL_POOL_SHARE = 0.4;

/** Connections the client may use at once: the pg pool's size; PGlite has one. */
function connectionsOf(driver: Driver): number {
  return driver.kind === "pg" ? (driver.pool.options.max ?? 10) : 1;
}

// Next.js bundles instrumentation, route handlers and proxy separately, so a module-level
// singleton would exist once per bundle; PGlite must be opened exactly once per process.
const slot = globalThis as typeof globalThis & { __schoolhouseDb?: DbHandle };

export function createDbHandle(driver: Driver): DbHandle {
  const permits = connectionsOf(driver);
  const gate = new FairGate({ permits, share: Math.ceil(permits * CREDENTIAL_POOL_SHARE) });
  const listeners = new Set<StatementListener>();
  // Process caches of reads are exact on the embedded database because its writes are counted
  // from here on (lib/db/read-cache.ts); no cache holds anything of this database before.
  if (driver.kind === "pglite") watchWrites(driver.pglite);
  const inner = driver.kind === "pg" ? new PrismaPg(driver.pool) : new PrismaPGlite(pgliteWithStatementCache(driver.pglite));
  const adapter = gatedAdapterFactory(inner, { gate, listeners });
  return {
    prisma: new PrismaClient({ adapter }),
    driver,
    gate,
    onStatement(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    noteStatement(statement) {
      for (const listener of listeners) listener(statement);
    },
  };
}

function createFromEnv(): DbHandle {
  const e = env();
  const driver = e.DATABASE_URL ? createPgDriver(e.DATABASE_URL) : createPgliteDriver(e.PGLITE_DATA_DIR);
  return createDbHandle(driver);
}

export function dbHandle(): DbHandle {
  slot.__schoolhouseDb ??= createFromEnv();
  return slot.__schoolhouseDb;
}

/** The process's one Prisma client. */
export function db(): PrismaClient {
  return dbHandle().prisma;
}

/** Replaces the process's database (tests give each file its own). */
export function setDbHandle(handle: DbHandle | undefined): void {
  slot.__schoolhouseDb = handle;
}

export async function closeDbHandle(handle: DbHandle): Promise<void> {
  await handle.prisma.$disconnect();
  await closeDriver(handle.driver);
  if (slot.__schoolhouseDb === handle) slot.__schoolhouseDb = undefined;
}
