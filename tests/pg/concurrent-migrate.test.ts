import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDriver, createPgDriver, withSqlSession } from "@/lib/db/driver";
import { migrate, readMigrations } from "@/lib/db/migrator";

const admin = process.env.TEST_DATABASE_URL!;
const name = `sh_test_race_${randomBytes(4).toString("hex")}`;
let url: string;

beforeAll(async () => {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  url = u.toString();
});

afterAll(async () => {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});

describe("migrator on Postgres", () => {
  it("applies each migration exactly once when several processes start at once", async () => {
    const drivers = Array.from({ length: 4 }, () => createPgDriver(url, { max: 2 }));
    try {
      const results = await Promise.all(drivers.map((driver) => migrate({ driver })));
      const files = await readMigrations();
      const applied = results.flatMap((r) => r.applied);
      expect(applied.sort()).toEqual(files.map((f) => f.name).sort());
      const rows = await withSqlSession(drivers[0]!, (s) => s.query(`SELECT migration_name FROM "_prisma_migrations"`));
      expect(rows).toHaveLength(files.length);
    } finally {
      await Promise.all(drivers.map(closeDriver));
    }
  });
});
