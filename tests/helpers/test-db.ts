import { randomBytes } from "node:crypto";
import pg from "pg";
import { closeDbHandle, createDbHandle, type DbHandle } from "@/lib/db/client";
import { createPgDriver, createPgliteDriver } from "@/lib/db/driver";
import { migrate } from "@/lib/db/migrator";

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

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is required for Postgres tests (e.g. postgresql://postgres@127.0.0.1:5432/test)");
  return url;
}

/** A freshly migrated, empty database of its own: in-memory PGlite or a new Postgres database. */
export async function createTestDb(kind: TestDbKind = testDbKind()): Promise<TestDb> {
  if (kind === "pglite") {
    const handle = createDbHandle(createPgliteDriver("memory://"));
    await migrate({ driver: handle.driver });
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
  await migrate({ driver: handle.driver });
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
