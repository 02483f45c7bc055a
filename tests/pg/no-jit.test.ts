// The service's Postgres connections run without JIT compilation (lib/db/driver.ts): every
// statement it sends is an indexed OLTP read or write of well under a millisecond, and compiling one
// costs about 10 ms, which Postgres pays whenever the planner's estimated cost passes
// jit_above_cost. Statistics older than a table's growth made it do so for a renewal batch's receipt
// facts (15 ms of a 35 ms statement; docs/benchmarks.md, "Renewals"). Postgres only (PGlite is
// built without JIT).
import { describe, expect, it } from "vitest";
import { db, dbHandle } from "@/lib/db/client";

describe("JIT on the service's connections", () => {
  it("is off on every pooled connection, whatever the server's default", async () => {
    const handle = dbHandle();
    expect(handle.driver.kind).toBe("pg");
    if (handle.driver.kind !== "pg") return;
    // Several connections at once, so more than one of the pool's is asked.
    const clients = await Promise.all(Array.from({ length: 3 }, () => handle.driver.kind === "pg" && handle.driver.pool.connect()));
    try {
      for (const client of clients) {
        if (!client) continue;
        // Set by the connection itself (its startup options), not inherited from the server's configuration.
        const { rows } = await client.query<{ jit: string; source: string }>(`SELECT setting AS "jit", source FROM pg_settings WHERE name = 'jit'`);
        expect(rows[0]).toEqual({ jit: "off", source: "client" });
      }
    } finally {
      for (const client of clients) if (client) client.release();
    }
    const [viaPrisma] = await db().$queryRawUnsafe<{ jit: string }[]>("SHOW jit");
    expect(viaPrisma?.jit).toBe("off");
  });

  it("a statement the planner costs above jit_above_cost is not compiled", async () => {
    const rows = await db().$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM generate_series(1, 2000000) a JOIN generate_series(1, 2000000) b ON a = b WHERE a < 10`,
    );
    const json = rows[0]!["QUERY PLAN"];
    const [plan] = (typeof json === "string" ? JSON.parse(json) : json) as { Plan: { "Total Cost": number }; JIT?: unknown }[];
    expect(plan!.Plan["Total Cost"]).toBeGreaterThan(100_000);
    expect(plan!.JIT).toBeUndefined();
  });
});
