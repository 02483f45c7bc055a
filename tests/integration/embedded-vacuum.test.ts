// The embedded database's autovacuum (lib/db/embedded-vacuum.ts): PGlite has none of its own, so
// the server's worker and long renewal runs vacuum and analyze what Postgres's autovacuum would.
// On Postgres it does nothing (its autovacuum is the operator's). PGlite, and Postgres with
// TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { dueRenewalStatements } from "@/bench/renewal-dataset";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { db, dbHandle } from "@/lib/db/client";
import { vacuumEmbedded } from "@/lib/db/embedded-vacuum";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";

const embedded = () => dbHandle().driver.kind === "pglite";

interface Stats {
  dead: number;
  lastVacuum: Date | null;
  lastAnalyze: Date | null;
}

async function statsOf(table: string): Promise<Stats> {
  await db().$queryRawUnsafe(`SELECT pg_stat_force_next_flush()::text`);
  const [row] = await db().$queryRawUnsafe<Stats[]>(
    `SELECT n_dead_tup::int AS "dead", last_vacuum AS "lastVacuum", last_analyze AS "lastAnalyze" FROM pg_stat_user_tables WHERE relname = $1`,
    table,
  );
  return row!;
}

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  for (const sql of dueRenewalStatements({ schoolId: DEMO_IDS.school, planId: DEMO_IDS.plans.monthly, count: 300, tag: "vacuum" })) {
    await db().$executeRawUnsafe(sql);
  }
}, 60_000);

describe("vacuumEmbedded", () => {
  it("vacuums a table whose dead rows passed autovacuum's threshold, analyzes one changed enough, and leaves the rest", async () => {
    // Every generated subscription updated twice: 600 dead versions of 300 live rows.
    for (let i = 0; i < 2; i++) await db().$executeRawUnsafe(`UPDATE "Subscription" SET "updatedAt" = now() WHERE "paymentMethodId" = 'pm_card_visa'`);
    // 300 new rows in a table never analyzed since: changed, nothing dead.
    await db().$executeRawUnsafe(
      `INSERT INTO "AuditEvent" ("id", "schoolId", "actorType", "actorId", "actorLabel", "action", "targetType", "targetId", "summary", "createdAt")
       SELECT gen_random_uuid(), $1::uuid, 'system', 'test', 'test', 'test.vacuum', 'subscription', gen_random_uuid()::text, '{}'::jsonb, now()
         FROM generate_series(1, 300)`,
      DEMO_IDS.school,
    );
    const before = await statsOf("Subscription");
    expect(before.dead).toBeGreaterThanOrEqual(600);
    const done = await vacuumEmbedded();
    if (!embedded()) {
      expect(done).toEqual({ vacuumed: [], analyzed: [] });
      expect((await statsOf("Subscription")).lastVacuum).toEqual(before.lastVacuum);
      return;
    }
    expect(done.vacuumed).toContain("Subscription");
    expect(done.vacuumed.includes("AuditEvent") || done.analyzed.includes("AuditEvent")).toBe(true);
    const after = await statsOf("Subscription");
    expect(after.dead).toBe(0);
    expect(after.lastVacuum).not.toBeNull();
    expect((await statsOf("AuditEvent")).lastAnalyze).not.toBeNull();
    // Nothing left to do: a second call only reads the statistics.
    expect(await vacuumEmbedded()).toEqual({ vacuumed: [], analyzed: [] });
  });

  it("a renewal run on the embedded database vacuums as it goes", async () => {
    const lastBefore = (await statsOf("Payment")).lastVacuum;
    const result = await renewDueSubscriptions({ now: new Date() });
    expect(result.outcomes.succeeded).toBe(300);
    const payment = await statsOf("Payment");
    const subscription = await statsOf("Subscription");
    if (!embedded()) {
      expect(payment.lastVacuum).toEqual(lastBefore);
      return;
    }
    // Each renewal leaves a dead version of its payment (opened pending, then settled) and two of its
    // subscription (the lease, then the new period): both tables passed the threshold during the run.
    expect(payment.lastVacuum).not.toBeNull();
    expect(subscription.dead).toBeLessThan(300);
  });
});
