// updateSubscriptionPaymentMethod (lib/billing/update-payment-method.ts; docs/decisions.md,
// "Billing", "Payment method") through the Admin API over HTTP, on a driven clock: the method saved,
// a past_due subscription's missed period paid at once through the renewal's exactly-once step, a
// declined retry leaving the state and the retry schedule as they were, refused input writing
// nothing. PGlite, and Postgres with TEST_DATABASE_URL.
import { afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { RETRY_DELAYS_MS } from "@/lib/billing/schedule";
import { UNKNOWN_TEST_CARD } from "@/lib/billing/test-provider";
import { NOT_CHARGED_AUTOMATICALLY, PAYMENT_METHOD_MISSING, PAYMENT_METHOD_NOT_UPDATABLE } from "@/lib/billing/update-payment-method";
import { SUBSCRIPTION_NOT_FOUND } from "@/lib/membership/change-subscription";
import { PAYMENT_IN_PROGRESS } from "@/lib/membership/pause-subscription";
import { ACME_API_KEY, CANCEL, DEMO_IDS, NO_PERMISSIONS_KEY, PLANS, TEST_NOW, adminAppForSuite, gql, subscribe } from "../admin-api/helpers";
import { CARDS, PAYMENT_FIELDS, billingEventsOf, providerChargesOf, readBilled, subscribeWithCard } from "./helpers";

const app = adminAppForSuite();
const DAY = 86_400;
const at = (unix: number) => new Date(unix * 1000);
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;
const JAN_21 = toUnixSeconds(new Date("2027-01-21T12:00:00Z"))!;

const UPDATE_PM = `mutation U($input: AdminUpdateSubscriptionPaymentMethodInput!) {
  updateSubscriptionPaymentMethod(input: $input) { errors subscription { id state currentPeriodStart currentPeriodEnd nextChargeDate } payment { ${PAYMENT_FIELDS} } }
}`;

async function updatePm(id: string, paymentMethod: string, options: Parameters<typeof gql>[3] = {}) {
  const r = await gql(app, UPDATE_PM, { input: { id, paymentMethod } }, options);
  return r.body.data.updateSubscriptionPaymentMethod;
}

/** A subscription whose first renewal was declined at DEC_21: past_due, retry due 3 days later. */
async function pastDue() {
  const s = await subscribeWithCard(app, PLANS.monthly, CARDS.failsLater);
  await renewDueSubscriptions({ now: at(DEC_21) });
  setNow(at(DEC_21 + DAY));
  const read = await readBilled(app, s.id);
  expect(read).toMatchObject({ state: "past_due", nextChargeDate: DEC_21 + RETRY_DELAYS_MS[0]! / 1000 });
  return read;
}

/** What a refused call must leave as it was (the audit log included). */
async function snapshot(id: string) {
  const row = await db().subscription.findUniqueOrThrow({ where: { id } });
  return {
    row,
    events: await db().webhookEvent.count({ where: { subjectId: id } }),
    charges: (await providerChargesOf(id)).length,
    payments: await db().payment.count({ where: { subscriptionId: id } }),
    audit: await db().auditEvent.count(),
  };
}

/** A payment's audit rows as [action, actor type, actor id]. */
const auditOf = async (paymentId: string) =>
  (await db().auditEvent.findMany({ where: { targetId: paymentId }, orderBy: { createdAt: "asc" } })).map((r) => [r.action, r.actorType, r.actorId]);

afterEach(() => setNow(TEST_NOW));

describe("updateSubscriptionPaymentMethod", () => {
  it("an active subscription: the method is saved (subscription.updated), nothing is charged, and the next renewal uses it", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.failsLater);
    const r = await updatePm(s.id, "4242 4242 4242 4242");
    expect(r.errors).toEqual([]);
    expect(r.payment).toBeNull();
    expect(r.subscription).toMatchObject({ state: "active", nextChargeDate: DEC_21 });
    expect((await db().subscription.findUniqueOrThrow({ where: { id: s.id } })).paymentMethodId).toBe("pm_card_visa");
    expect(await providerChargesOf(s.id)).toHaveLength(1);
    // The card that fails off-session was replaced: the renewal pays.
    await renewDueSubscriptions({ now: at(DEC_21) });
    setNow(at(DEC_21));
    expect(await readBilled(app, s.id)).toMatchObject({ state: "active", currentPeriodStart: DEC_21 });
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "payment.succeeded", "subscription.activated", "subscription.updated", "payment.succeeded", "subscription.renewed"]);
  });

  it("past_due: the missed period is paid at once with the new card (attempt 2 of the period, on-session), active again, the period moved", async () => {
    const s = await pastDue();
    const r = await updatePm(s.id, CARDS.visa);
    expect(r.errors).toEqual([]);
    expect(r.payment).toMatchObject({ state: "succeeded", attempt: 2, periodStart: DEC_21, periodEnd: JAN_21, billingReason: "subscription_cycle", paymentMethodId: "pm_card_visa" });
    expect(r.subscription).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21, nextChargeDate: JAN_21 });
    const charges = await providerChargesOf(s.id);
    expect(charges.map((c) => c.idempotencyKey.replace(/^sub_[^_]+_/, ""))).toEqual([
      `period_${at(toUnixSeconds(TEST_NOW)!).getTime()}_attempt_1`,
      `period_${at(DEC_21).getTime()}_attempt_1`,
      `period_${at(DEC_21).getTime()}_attempt_2`,
    ]);
    // The charge is the caller's, not the renewals': the key that asked is the audit row's actor;
    // the declined renewal before it is the system's.
    expect(await auditOf(r.payment.id)).toEqual([["payment.collect", "api_key", DEMO_IDS.apiKeys.full]]);
    const renewal = await db().payment.findFirstOrThrow({ where: { subscriptionId: s.id, periodStart: at(DEC_21), attempt: 1 } });
    expect(await auditOf(renewal.id)).toEqual([["payment.fail", "system", null]]);
    // payment.succeeded and subscription.renewed in the transaction that recorded the charge.
    const last = await db().webhookEvent.findMany({ where: { subjectId: { in: [s.id, r.payment.id] }, createdAt: at(DEC_21 + DAY) } });
    expect(last.map((e) => (JSON.parse(e.payload) as { type: string }).type).sort()).toEqual(["payment.succeeded", "subscription.renewed", "subscription.updated"]);
    // Nothing left to retry: the old retry date passes without a charge.
    await renewDueSubscriptions({ now: at(DEC_21 + 3 * DAY) });
    expect(await providerChargesOf(s.id)).toHaveLength(3);
    // A second submit of the same card: saved again, nothing to charge.
    const again = await updatePm(s.id, CARDS.visa);
    expect(again).toMatchObject({ errors: [], payment: null });
    expect(await providerChargesOf(s.id)).toHaveLength(3);
  });

  it("past_due, the new card declined too: still past_due, the decline in the payment, the retry schedule unchanged", async () => {
    const s = await pastDue();
    const firstRetry = DEC_21 + RETRY_DELAYS_MS[0]! / 1000;
    const r = await updatePm(s.id, CARDS.insufficient);
    expect(r.errors).toEqual([]);
    expect(r.payment).toMatchObject({ state: "failed", attempt: 2, failureCode: "insufficient_funds", failureMessage: "Your card has insufficient funds." });
    expect(await auditOf(r.payment.id)).toEqual([["payment.fail", "api_key", DEMO_IDS.apiKeys.full]]);
    expect(r.subscription).toMatchObject({ state: "past_due", nextChargeDate: firstRetry });
    // The scheduled retries keep their dates: 3 days after the renewal, then 5 days after that one.
    await renewDueSubscriptions({ now: at(firstRetry) });
    setNow(at(firstRetry));
    const afterRetry = await readBilled(app, s.id);
    expect(afterRetry).toMatchObject({ state: "past_due", nextChargeDate: firstRetry + RETRY_DELAYS_MS[1]! / 1000 });
    expect(afterRetry.payments.map((p: { attempt: number; paymentMethodId: string }) => [p.attempt, p.paymentMethodId])).toEqual([
      [1, "pm_card_chargeCustomerFail"],
      [1, "pm_card_chargeCustomerFail"],
      [2, "pm_card_chargeDeclinedInsufficientFunds"],
      [3, "pm_card_chargeDeclinedInsufficientFunds"],
    ]);
    // The scheduled retry is the renewals' own.
    expect(await auditOf(afterRetry.payments[3].id)).toEqual([["payment.fail", "system", null]]);
  });

  it("two updates at once while past_due charge the missed period once", async () => {
    const s = await pastDue();
    const results = await Promise.all([updatePm(s.id, CARDS.visa), updatePm(s.id, CARDS.visa)]);
    const paid = results.filter((r) => r.payment?.state === "succeeded");
    expect(paid).toHaveLength(1);
    for (const r of results) if (r !== paid[0]) expect(r.errors.length === 0 ? r.payment : r.errors).toEqual(r.errors.length === 0 ? null : [PAYMENT_IN_PROGRESS]);
    const succeeded = await db().payment.count({ where: { subscriptionId: s.id, periodStart: at(DEC_21), state: "succeeded" } });
    expect(succeeded).toBe(1);
  });

  it("refused input writes nothing and charges nothing", async () => {
    const billed = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const external = await subscribe(app, PLANS.monthly);
    const canceled = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    await gql(app, CANCEL, { input: { id: canceled.id, cancelAtPeriodEnd: false } });
    const cases: [string, string, string, Parameters<typeof gql>[3]?][] = [
      ["not-a-uuid", CARDS.visa, SUBSCRIPTION_NOT_FOUND],
      ["00000000-0000-4000-8000-000000000000", CARDS.visa, SUBSCRIPTION_NOT_FOUND],
      [billed.id, CARDS.visa, SUBSCRIPTION_NOT_FOUND, { key: ACME_API_KEY }],
      [billed.id, CARDS.visa, "Unauthorized", { key: NO_PERMISSIONS_KEY }],
      [external.id, CARDS.visa, NOT_CHARGED_AUTOMATICALLY],
      [canceled.id, CARDS.visa, PAYMENT_METHOD_NOT_UPDATABLE],
      [billed.id, "   ", PAYMENT_METHOD_MISSING],
      [billed.id, "4".repeat(201), PAYMENT_METHOD_MISSING],
      [billed.id, "4111111111111111", UNKNOWN_TEST_CARD.message],
    ];
    for (const [id, card, message, options] of cases) {
      const before = id.length === 36 && id !== "00000000-0000-4000-8000-000000000000" ? await snapshot(id) : null;
      const r = await updatePm(id, card, options);
      expect(r, `${id} ${card}`).toMatchObject({ errors: [message], subscription: null, payment: null });
      if (before) expect(await snapshot(id)).toEqual(before);
    }
  });

  it("refused while a renewal worker holds the subscription (a charge in flight)", async () => {
    const s = await pastDue();
    await db().subscription.update({ where: { id: s.id }, data: { chargeLockedUntil: at(DEC_21 + DAY + 60) } });
    const before = await snapshot(s.id);
    expect(await updatePm(s.id, CARDS.visa)).toMatchObject({ errors: [PAYMENT_IN_PROGRESS], payment: null });
    expect(await snapshot(s.id)).toEqual(before);
  });
});
