import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { withSqlSession, type Driver, type SqlSession } from "./driver";

// The same key `prisma migrate deploy` takes, so the app and the Prisma CLI exclude each other.
const PRISMA_ADVISORY_LOCK = 72707369;

// Prisma's own bookkeeping table, column for column, so both tools read each other's history.
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export const DEFAULT_MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

export async function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  // The SQL files are shipped by outputFileTracingIncludes in next.config.mjs, not by tracing.
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface MigrateResult {
  applied: string[];
  /** Names whose file changed after it was applied (a warning, as with Prisma). */
  modified: string[];
}

/**
 * Applies pending migrations in name order, each in its own transaction, under Prisma's
 * advisory lock. Safe to run from several processes at once and a no-op when up to date.
 */
export async function migrate(options: { driver: Driver; migrations?: Migration[] }): Promise<MigrateResult> {
  const migrations = options.migrations ?? (await readMigrations());
  return withSqlSession(options.driver, async (s) => {
    await s.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    try {
      return await applyPending(s, migrations);
    } finally {
      await s.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]);
    }
  });
}

async function applyPending(s: SqlSession, migrations: Migration[]): Promise<MigrateResult> {
  await s.exec(MIGRATIONS_TABLE);
  const rows = await s.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
  );
  const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      `migration ${failed.migration_name} failed earlier and must be resolved (prisma migrate resolve)`,
    );
  }
  const done = new Map(rows.filter((r) => r.finished_at !== null).map((r) => [r.migration_name, r.checksum]));
  const result: MigrateResult = { applied: [], modified: [] };
  for (const m of migrations) {
    const checksum = done.get(m.name);
    if (checksum !== undefined) {
      if (checksum !== m.checksum) result.modified.push(m.name);
      continue;
    }
    await s.exec("BEGIN");
    try {
      await s.exec(m.sql);
      await s.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), m.checksum, m.name],
      );
      await s.exec("COMMIT");
    } catch (err) {
      await s.exec("ROLLBACK");
      throw new MigrationError(`migration ${m.name} failed: ${(err as Error).message}`);
    }
    result.applied.push(m.name);
  }
  return result;
}

/**
 * Migrations not yet applied (by name), without changing anything: what a production start checks
 * instead of migrating. A migration that failed half-way counts as pending.
 */
export async function pendingMigrations(options: { driver: Driver; migrations?: Migration[] }): Promise<string[]> {
  const migrations = options.migrations ?? (await readMigrations());
  return withSqlSession(options.driver, async (s) => {
    const [table] = await s.query<{ exists: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS exists`);
    if (!table?.exists) return migrations.map((m) => m.name);
    const rows = await s.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Set(rows.map((r) => r.migration_name));
    return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
  });
}
