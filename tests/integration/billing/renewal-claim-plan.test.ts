// A renewal run's claim costs the same however many subscriptions are due (issue 26: 10,000 vs
// 100,000 due within 20% per item; docs/benchmarks.md, "Renewals"): with thousands due, the claim
// walks the nextChargeDate index to its first batch and stops. It must never read every due
// subscription (a Seq Scan of Subscription) and sort them for each batch of 200: a run over n due
// would then cost n²/200 rows read (at 100,000 due, 0.7 s a claim on Postgres). PGlite, and
// Postgres with TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { dueRenewalStatements } from "@/bench/renewal-dataset";
import { claimDueSubscriptions } from "@/lib/billing/renew-due";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { planNodes, planOf, rowStatementsDuring } from "../../helpers/statements";

// Enough that a plan reading them all is the planner's choice when it misjudges how many qualify
// (the joined claim did, on both databases); few enough to generate in a second.
const DUE = 5_000;
const BATCH = 200;

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  for (const sql of dueRenewalStatements({ schoolId: DEMO_IDS.school, planId: DEMO_IDS.plans.monthly, count: DUE, tag: "plan" })) {
    await db().$executeRawUnsafe(sql);
  }
}, 120_000);

describe("the renewal claim with thousands due", () => {
  it("walks the nextChargeDate index to one batch: no Seq Scan of Subscription, no sort of the due set", async () => {
    const now = new Date();
    for (const schoolId of [undefined, DEMO_IDS.school]) {
      const [claim, ...rest] = await rowStatementsDuring(async () => {
        const { ids } = await claimDueSubscriptions({ now, limit: BATCH, schoolId, exclude: ["00000000-0000-4000-8000-000000000000"] });
        expect(ids.length).toBe(BATCH);
      });
      expect(rest).toEqual([]);
      const plan = await planOf(claim!);
      // The lease's UPDATE of the ≤ 2 × 200 ids found may read them as the planner likes (a Seq
      // Scan of a table this small is its cheapest way); the two searches may not.
      for (const name of ["CTE due", "CTE unsettled"]) {
        const cte = planNodes(plan).find((n) => n["Subplan Name"] === name);
        expect(cte, name).toBeDefined();
        const inside = planNodes(cte!);
        expect(inside.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "Subscription"), name).toEqual([]);
        expect(inside.filter((n) => n["Node Type"] === "Sort"), name).toEqual([]);
        expect(inside.some((n) => n["Node Type"].startsWith("Index") && n["Relation Name"] === "Subscription"), name).toBe(true);
      }
    }
  });
});
