import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "../env";
import { closeDriver, createPgDriver, createPgliteDriver, type Driver } from "./driver";
import { PrismaClient } from "./generated/client";

export type Db = PrismaClient;
export interface DbHandle {
  prisma: PrismaClient;
  driver: Driver;
}

// Next.js bundles instrumentation, route handlers and proxy separately, so a module-level
// singleton would exist once per bundle; PGlite must be opened exactly once per process.
const slot = globalThis as typeof globalThis & { __schoolhouseDb?: DbHandle };

export function createDbHandle(driver: Driver): DbHandle {
  const adapter = driver.kind === "pg" ? new PrismaPg(driver.pool) : new PrismaPGlite(driver.pglite);
  return { prisma: new PrismaClient({ adapter }), driver };
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
