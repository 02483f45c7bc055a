// Issue 12: the migration that records each grant's issuer backfills grants written before it with
// '' (matching no origin, so their tokens are refused: issuer-binding.test.ts), on PGlite and Postgres.
import { describe, expect, it } from "vitest";
import { withSqlSession } from "@/lib/db/driver";
import { migrate, readMigrations } from "@/lib/db/migrator";
import { createTestDb } from "../../helpers/test-db";

describe("migration 12a_token_issuer", () => {
  it("gives grants written before it the issuer '' and leaves the column without a default", async () => {
    const all = await readMigrations();
    const at = all.findIndex((m) => m.name.endsWith("_12a_token_issuer"));
    expect(at).toBeGreaterThan(0);
    const t = await createTestDb(undefined, { migrations: all.slice(0, at) });
    try {
      const school = "5c400000-0000-4000-8000-00000000a001";
      const user = "5c400000-0000-4000-8000-00000000a002";
      const grant = "5c400000-0000-4000-8000-00000000a003";
      await withSqlSession(t.handle.driver, async (s) => {
        await s.query(`INSERT INTO "School" ("id", "subdomain", "name", "updatedAt") VALUES ($1, 'mig12a', 'Mig', now())`, [school]);
        await s.query(`INSERT INTO "User" ("id", "email", "name", "updatedAt") VALUES ($1, 'mig12a@test.dev', 'Mig', now())`, [user]);
        await s.query(`INSERT INTO "OAuthGrant" ("id", "clientId", "userId", "schoolId", "scope") VALUES ($1, 'demo-public-app', $2, $3, 'openid')`, [
          grant,
          user,
          school,
        ]);
      });
      const result = await migrate({ driver: t.handle.driver });
      expect(result.applied[0]).toBe(all[at]!.name);
      const rows = await withSqlSession(t.handle.driver, (s) =>
        s.query<{ issuer: string; column_default: string | null }>(
          `SELECT g."issuer", c."column_default" FROM "OAuthGrant" g,
             information_schema.columns c WHERE c.table_name = 'OAuthGrant' AND c.column_name = 'issuer' AND g."id" = $1`,
          [grant],
        ),
      );
      expect(rows).toEqual([{ issuer: "", column_default: null }]);
    } finally {
      await t.dispose();
    }
  });
});
