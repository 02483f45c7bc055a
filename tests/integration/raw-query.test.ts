// rawQuery, the hot statements' path to the raw driver (lib/db/raw.ts), on this run's database:
// a named statement answers like an unnamed one and is prepared once in the session (PGlite: the
// instance's one session; Postgres: the pooled connection that ran it).
import { describe, expect, it } from "vitest";
import { dbHandle } from "@/lib/db/client";
import { rawQuery } from "@/lib/db/raw";

const SQL = `SELECT $1::text AS "text", $2::int AS "n", $3::timestamptz AS "at", $4::text[] AS "list"`;

async function preparedNames(): Promise<string[]> {
  const driver = dbHandle().driver;
  const sql = `SELECT name FROM pg_prepared_statements ORDER BY name`;
  if (driver.kind === "pglite") return (await driver.pglite.query<{ name: string }>(sql)).rows.map((r) => r.name);
  // pg keeps its named statements per pooled connection, and its pool hands out the connection
  // released last: the one the sequential rawQuery calls before this ran on.
  const client = await driver.pool.connect();
  try {
    return (await client.query<{ name: string }>(sql)).rows.map((r) => r.name);
  } finally {
    client.release();
  }
}

describe("rawQuery", () => {
  it("answers a named statement as the unnamed one, each time with its own parameters", async () => {
    for (const params of [
      ["one", 1, new Date("2026-01-02T03:04:05.678Z"), ["a", "b c", "\"quoted\""]],
      ["two, with 'quotes'", -7, new Date("1999-12-31T23:59:59Z"), []],
      [null, null, null, null],
    ]) {
      const named = await rawQuery(SQL, params, { name: "raw-query-test" });
      const unnamed = await rawQuery(SQL, params);
      expect(named).toEqual(unnamed);
      expect(named).toEqual([{ text: params[0], n: params[1], at: params[2], list: params[3] }]);
    }
  });

  it("prepares a named statement in the session, and an unnamed one not at all", async () => {
    await rawQuery(SQL, ["x", 2, new Date(), ["y"]], { name: "raw-query-test" });
    await rawQuery(`SELECT 1 AS "unnamed"`, []);
    const names = await preparedNames();
    expect(names).toContain("raw-query-test");
    expect(names.every((n) => n !== "")).toBe(true);
  });
});
