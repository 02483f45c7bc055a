// Many subscriptions at once for the demo school (plain inserts, not the API): pages full enough to
// measure batching and load.
import { db } from "@/lib/db/client";
import { DEMO_IDS, TEST_NOW } from "./helpers";

/** `count` live subscriptions with two payments each, created before the demo's own rows. */
export async function addSubscriptionRows(count: number): Promise<void> {
  // Rows of their own, two payments each, all live well past the frozen clock (nothing to settle).
  const start = new Date(TEST_NOW.getTime() - 86_400_000);
  const end = new Date(TEST_NOW.getTime() + 30 * 86_400_000);
  const users = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    email: `batch.${i}@example.com`,
    name: `Batch Member ${i}`,
  }));
  await db().user.createMany({ data: users });
  const subs = users.map((u, i) => ({
    id: crypto.randomUUID(),
    schoolId: DEMO_IDS.school,
    userId: u.id,
    planId: i % 2 ? DEMO_IDS.plans.monthly : DEMO_IDS.plans.legacyAnnual,
    state: "active" as const,
    startAt: start,
    currentPeriodStart: start,
    currentPeriodEnd: end,
    nextChargeDate: end,
    // Before the demo's rows, so the first pages are these.
    createdAt: new Date(Date.UTC(2020, 0, 1) + i * 1000),
  }));
  await db().subscription.createMany({ data: subs });
  await db().payment.createMany({
    data: subs.flatMap((s, i) => [
      { schoolId: DEMO_IDS.school, subscriptionId: s.id, amount: "29.00", currency: "USD", state: "succeeded" as const, paidAt: start, createdAt: start },
      { schoolId: DEMO_IDS.school, subscriptionId: s.id, amount: `${i}.50`, currency: "USD", state: "pending" as const, createdAt: end },
    ]),
  });
}
