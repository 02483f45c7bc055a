// A production start on Postgres checks the schema instead of migrating: on an unmigrated database
// it refuses with one line; after `npm run db:migrate` (on the direct URL) it starts.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap, startupFailureLine } from "@/lib/startup/bootstrap";
import { closeDbHandle, dbHandle, setDbHandle } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const admin = process.env.TEST_DATABASE_URL!;
const name = `sh_prodstart_${randomBytes(4).toString("hex")}`;
const url = Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
const saved = { ...process.env };

beforeAll(async () => {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  setDbHandle(undefined);
  Object.assign(process.env, { NODE_ENV: "production", DATABASE_URL: url, AUTH_SECRET: randomBytes(24).toString("hex"), SEED_ON_START: "0" });
  resetEnvCache();
});

afterAll(async () => {
  await closeDbHandle(dbHandle()).catch(() => {});
  process.env = saved;
  resetEnvCache();
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});

describe("production start on Postgres", () => {
  it("refuses an unmigrated database with one line, and changes nothing", async () => {
    const err = await bootstrap({ log: () => {} }).catch((e: unknown) => e);
    const line = startupFailureLine(err);
    expect(line).toMatch(/^schoolhouse: the database schema is not current \(\d+ migrations pending, first 20261121043506_init\): run `npm run db:migrate` with DIRECT_DATABASE_URL set, then start again$/);
    expect(line).not.toContain("\n");
    const tables = await dbHandle().prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'`);
    expect(Number(tables[0]!.n)).toBe(0);
  });

  it("starts after npm run db:migrate, which uses the direct URL", async () => {
    // The pooled URL points nowhere: the migration must go through DIRECT_DATABASE_URL.
    const env = { ...process.env, DATABASE_URL: "postgresql://postgres@127.0.0.1:1/pooler", DIRECT_DATABASE_URL: url };
    const r = await run(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/db-migrate.ts"], { cwd: ROOT, env });
    expect(r.stdout).toMatch(/^applied: 20261121043506_init, /);
    const log: string[] = [];
    await bootstrap({ log: (l) => log.push(l) });
    expect(log).toEqual([]);
    expect(await dbHandle().prisma.school.count()).toBe(0);
  }, 120_000);
});
