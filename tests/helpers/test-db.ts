import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { closeDbHandle, createDbHandle, type DbHandle } from "@/lib/db/client";
import { createPgDriver, createPgliteDriver } from "@/lib/db/driver";
import { migrate, type Migration } from "@/lib/db/migrator";

export type TestDbKind = "pglite" | "pg";

/** Which database this test run uses: the integration-pg project sets TEST_DB_KIND=pg. */
export function testDbKind(): TestDbKind {
  return process.env.TEST_DB_KIND === "pg" ? "pg" : "pglite";
}

export interface TestDb {
  handle: DbHandle;
  kind: TestDbKind;
  /** Connection URL of this file's own database (pg only). */
  url?: string;
  dispose(): Promise<void>;
}

/** The migrated dump made by tests/setup/pglite-template.ts, when this run has one. */
function pgliteTemplate(): string | undefined {
  try {
    const file = inject("pgliteTemplate");
    return file && existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is required for Postgres tests (e.g. postgresql://postgres@127.0.0.1:5432/test)");
  return url;
}

/**
 * A freshly migrated, empty database of its own: in-memory PGlite (loaded from the run's migrated
 * template unless `fresh`) or a new Postgres database (always migrated from empty). `migrations`
 * (implies `fresh`) applies only those, to test a migration against rows written before it.
 */
export async function createTestDb(kind: TestDbKind = testDbKind(), options: { fresh?: boolean; migrations?: Migration[] } = {}): Promise<TestDb> {
  const { migrations } = options;
  if (kind === "pglite") {
    const template = options.fresh || migrations ? undefined : pgliteTemplate();
    const driver = template
      ? { kind: "pglite" as const, pglite: new PGlite({ loadDataDir: new Blob([readFileSync(template)]) }), dataDir: "memory://" }
      : createPgliteDriver("memory://");
    const handle = createDbHandle(driver);
    // Also applies migrations newer than the template (none within one run), and proves it is a no-op.
    await migrate({ driver: handle.driver, migrations });
    return { handle, kind, dispose: () => closeDbHandle(handle) };
  }
  const admin = adminUrl();
  const name = `sh_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const handle = createDbHandle(createPgDriver(url.toString(), { max: 20 }));
  await migrate({ driver: handle.driver, migrations });
  return {
    handle,
    kind,
    url: url.toString(),
    async dispose() {
      await closeDbHandle(handle);
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
