// A renewal batch's receipts read what they say about each payment in one statement
// (lib/mail/billing-mails.ts), including whether the subscription was paid before ("collectedBefore":
// purchase or renewal receipt). That statement must read each subscription's own payments by its
// subscriptionId index and never the state index: with statistics older than the Payment table's
// growth (Postgres before autovacuum's next ANALYZE, PGlite always: it has no autovacuum), the planner
// ANDed the two indexes and read the state index's entry of every succeeded payment in the database
// for each receipt, so a renewal run's cost per item grew with the payments it had already made
// (31 ms a batch of 200 at 15,000 renewals, 279 ms at 95,000; docs/benchmarks.md, "Renewals").
// PGlite, and Postgres with TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { dueRenewalStatements } from "@/bench/renewal-dataset";
import { db } from "@/lib/db/client";
import { enqueueBillingMails } from "@/lib/mail/billing-mails";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { planNodes, planOf, rowStatementsDuring } from "../../helpers/statements";

const PAID = 5_000;
const BATCH = 200;

let paymentIds: string[] = [];

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  // Statistics taken while Payment held only the demo's payments, then thousands paid since: what a
  // renewal run's tables look like before anything analyzes them again.
  await db().$executeRawUnsafe(`ANALYZE "Payment"`);
  for (const sql of dueRenewalStatements({ schoolId: DEMO_IDS.school, planId: DEMO_IDS.plans.monthly, count: PAID, tag: "facts" })) {
    await db().$executeRawUnsafe(sql);
  }
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO "Payment" ("id", "schoolId", "subscriptionId", "amount", "currency", "state", "paidAt", "periodStart", "periodEnd",
                            "billingReason", "provider", "attempt", "offSession", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), s."schoolId", s."id", 10, 'USD', 'succeeded', now(), s."currentPeriodStart", s."currentPeriodEnd",
            'subscription_cycle', 'test', 1, true, now(), now()
       FROM "Subscription" s WHERE s."paymentMethodId" = 'pm_card_visa' AND s."userId" IN (SELECT "id" FROM "User" WHERE "email" LIKE 'renew-facts-%')
     RETURNING "id"::text AS "id"`,
  );
  expect(rows.length).toBe(PAID);
  paymentIds = rows.slice(0, BATCH).map((r) => r.id);
}, 120_000);

describe("the payment facts of a renewal batch's receipts", () => {
  it("reach each subscription's payments by subscriptionId, never through the state index", async () => {
    const events = paymentIds.map((id) => ({ schoolId: DEMO_IDS.school, type: "payment.succeeded" as const, subjectId: id, data: {} }));
    const sent = await rowStatementsDuring(() => db().$transaction((tx) => enqueueBillingMails(tx, { events, now: new Date() })));
    const facts = sent.find((s) => s.sql.includes(`"collectedBefore"`));
    expect(facts).toBeDefined();
    const plan = planNodes(await planOf(facts!));
    const onPayment = plan.filter((n) => n["Relation Name"] === "Payment" || n["Index Name"]?.startsWith("Payment_"));
    expect(onPayment.map((n) => n["Index Name"]).filter((name) => name && /state/i.test(name))).toEqual([]);
    expect(onPayment.some((n) => n["Index Name"] === "Payment_subscriptionId_idx")).toBe(true);
  });

  it("still tells a renewal from a first payment", async () => {
    const kindOf = async (id: string) => {
      await db().$transaction((tx) => enqueueBillingMails(tx, { events: [{ schoolId: DEMO_IDS.school, type: "payment.succeeded", subjectId: id, data: {} }], now: new Date() }));
      const [mail] = await db().$queryRawUnsafe<{ kind: string }[]>(
        `SELECT "kind"::text AS "kind" FROM "MailMessage" WHERE "params"->>'paymentId' = $1 ORDER BY "createdAt" DESC LIMIT 1`,
        id,
      );
      return mail?.kind;
    };
    const first = paymentIds[0]!;
    expect(await kindOf(first)).toBe("purchase-receipt");
    const [second] = await db().$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO "Payment" ("id", "schoolId", "subscriptionId", "amount", "currency", "state", "paidAt", "periodStart", "billingReason", "provider", "attempt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), "schoolId", "subscriptionId", 10, 'USD', 'succeeded', now(), "periodEnd", 'subscription_cycle', 'test', 1, now(), now()
         FROM "Payment" WHERE "id" = $1::uuid RETURNING "id"::text AS "id"`,
      first,
    );
    expect(await kindOf(second!.id)).toBe("renewal-receipt");
  });
});
