// The billing state machine on a driven clock (docs/decisions.md, "Billing"): first charges,
// renewals, failures, the retry schedule, the end after the last retry, trials and incomplete
// expiry, each with its payments (money) and its webhook events. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db, dbHandle } from "@/lib/db/client";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { RETRY_DELAYS_MS } from "@/lib/billing/schedule";
import { clearTestProviderFaults, simulateProviderUnavailable, simulateTimeoutAfterCharge } from "@/lib/billing/test-provider";
import { PLANS, TEST_NOW, adminAppForSuite, gql, freshEmail, subscribe, CANCEL } from "../admin-api/helpers";
import { CARDS, CREATE_BILLED, billingEventsOf, providerChargesOf, readBilled, subscribeWithCard } from "./helpers";

const app = adminAppForSuite();
const T = toUnixSeconds(TEST_NOW)!;
const DAY = 86_400;
const at = (unix: number) => new Date(unix * 1000);
// 2026-11-21 + 1 month = 2026-12-21; + 2 months = 2027-01-21.
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;
const JAN_21 = toUnixSeconds(new Date("2027-01-21T12:00:00Z"))!;
const FEB_21 = toUnixSeconds(new Date("2027-02-21T12:00:00Z"))!;

afterEach(() => {
  setNow(TEST_NOW);
  clearTestProviderFaults();
});

/** Runs renewals as the cron route would at this time, for the demo school only, and reads the subscription back. */
async function runAt(unix: number, id: string) {
  await renewDueSubscriptions({ now: at(unix) });
  return readBilled(app, id);
}

describe("first charge at purchase", () => {
  it("a good card: active, one succeeded payment for the first period, payment.succeeded and subscription.activated", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    expect(s).toMatchObject({ state: "active", collectionMethod: "charge_automatically", currentPeriodStart: T, currentPeriodEnd: DEC_21, nextChargeDate: DEC_21 });
    expect(s.payments).toEqual([
      expect.objectContaining({
        amount: "29.00",
        currency: "USD",
        state: "succeeded",
        paidAt: T,
        periodStart: T,
        periodEnd: DEC_21,
        billingReason: "subscription_create",
        provider: "test",
        paymentMethodId: "pm_card_visa",
        attempt: 1,
        failureCode: null,
        refundedAmount: "0.00",
        subscriptionId: s.id,
      }),
    ]);
    expect(s.payments[0].providerPaymentId).toMatch(/^pi_test_/);
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "payment.succeeded", "subscription.activated"]);
    expect(await providerChargesOf(s.id)).toHaveLength(1);
  });

  it("a declined card: incomplete with a failed payment, no retry; incomplete_expired after 23 hours", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.declined);
    expect(s).toMatchObject({ state: "incomplete", nextChargeDate: null });
    expect(s.payments).toEqual([expect.objectContaining({ state: "failed", failureCode: "generic_decline", failureMessage: "Your card was declined.", paidAt: null, failedAt: T })]);
    expect((await runAt(T + 22 * 3600, s.id)).state).toBe("incomplete");
    const expired = await runAt(T + 23 * 3600, s.id);
    expect(expired).toMatchObject({ state: "incomplete_expired", nextChargeDate: null, endAt: T + 23 * 3600 });
    expect(expired.payments).toHaveLength(1);
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "payment.failed", "subscription.incomplete_expired"]);
    // Ended: the member may subscribe again.
    const again = await gql(app, CREATE_BILLED, { input: { email: (await db().user.findFirstOrThrow({ where: { subscriptions: { some: { id: s.id } } } })).email, planId: PLANS.monthly, collectionMethod: "charge_automatically", paymentMethod: CARDS.visa } });
    expect(again.body.data.createSubscription.errors).toEqual([]);
  });

  it("lifetime and specific_length plans are charged once at purchase and never again", async () => {
    const lifetime = await subscribeWithCard(app, PLANS.lifetime, CARDS.visa);
    expect(lifetime).toMatchObject({ state: "active", nextChargeDate: null, currentPeriodEnd: null });
    expect(lifetime.payments).toEqual([expect.objectContaining({ state: "succeeded", amount: "499.00", periodStart: T, periodEnd: null, billingReason: "subscription_create" })]);
    const bootcamp = await subscribeWithCard(app, PLANS.bootcamp, CARDS.visa);
    expect(bootcamp).toMatchObject({ state: "active", nextChargeDate: null });
    expect(bootcamp.payments).toEqual([expect.objectContaining({ state: "succeeded", amount: "149.00", periodEnd: bootcamp.currentPeriodEnd })]);
    await renewDueSubscriptions({ now: at(T + 800 * DAY) });
    expect((await readBilled(app, lifetime.id)).payments).toHaveLength(1);
    expect((await readBilled(app, bootcamp.id)).payments).toHaveLength(1);
  });

  it("insufficient funds: the decline code says so", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.insufficient);
    expect(s.payments[0]).toMatchObject({ state: "failed", failureCode: "insufficient_funds", failureMessage: "Your card has insufficient funds." });
  });

  it("refuses a missing or unknown payment method and one given for external collection, writing nothing", async () => {
    const before = await db().subscription.count();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ collectionMethod: "charge_automatically" }, /paymentMethod is required/],
      [{ collectionMethod: "charge_automatically", paymentMethod: "4111111111111111" }, /Use a test card/],
      [{ paymentMethod: CARDS.visa }, /applies only when collectionMethod is charge_automatically/],
      [{ collectionMethod: "invoice" }, /collectionMethod must be external or charge_automatically/],
    ];
    for (const [extra, message] of cases) {
      const r = await gql(app, CREATE_BILLED, { input: { email: freshEmail(), name: "X", planId: PLANS.monthly, ...extra } });
      expect(r.body.data.createSubscription.subscription).toBeNull();
      expect(r.body.data.createSubscription.errors[0]).toMatch(message);
    }
    expect(await db().subscription.count()).toBe(before);
  });
});

describe("renewal", () => {
  it("charges the next period at the plan's price when the period ends, once, and advances the period", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    expect((await runAt(DEC_21 - 1, s.id)).payments).toHaveLength(1);
    const renewed = await runAt(DEC_21, s.id);
    expect(renewed).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21, nextChargeDate: JAN_21 });
    expect(renewed.payments[1]).toMatchObject({ state: "succeeded", amount: "29.00", periodStart: DEC_21, periodEnd: JAN_21, billingReason: "subscription_cycle", paidAt: DEC_21, attempt: 1 });
    // Running again at the same time charges nothing more.
    expect((await runAt(DEC_21 + 10, s.id)).payments).toHaveLength(2);
    expect(await providerChargesOf(s.id)).toHaveLength(2);
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "payment.succeeded", "subscription.activated", "payment.succeeded", "subscription.renewed"]);
  });

  it("a failed renewal: past_due, retried 3, 5 and 7 days later; a successful retry makes it active for the missed period", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    await db().subscription.update({ where: { id: s.id }, data: { paymentMethodId: "pm_card_chargeDeclined" } });
    const due = await runAt(DEC_21, s.id);
    expect(due).toMatchObject({ state: "past_due", currentPeriodEnd: DEC_21, nextChargeDate: DEC_21 + 3 * DAY });
    expect(due.payments[1]).toMatchObject({ state: "failed", attempt: 1, periodStart: DEC_21, failedAt: DEC_21 });
    const second = await runAt(DEC_21 + 3 * DAY, s.id);
    expect(second).toMatchObject({ state: "past_due", nextChargeDate: DEC_21 + 8 * DAY });
    expect(second.payments[2]).toMatchObject({ state: "failed", attempt: 2, periodStart: DEC_21 });
    // A new card before the next retry: the retry pays the missed period.
    await db().subscription.update({ where: { id: s.id }, data: { paymentMethodId: "pm_card_visa" } });
    const paid = await runAt(DEC_21 + 8 * DAY, s.id);
    expect(paid).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21, nextChargeDate: JAN_21 });
    expect(paid.payments[3]).toMatchObject({ state: "succeeded", attempt: 3, periodStart: DEC_21, paidAt: DEC_21 + 8 * DAY });
    expect(await billingEventsOf(s.id)).toEqual([
      "subscription.created",
      "payment.succeeded",
      "subscription.activated",
      "payment.failed",
      "subscription.past_due",
      "payment.failed",
      "payment.succeeded",
      "subscription.renewed",
    ]);
    const succeeded = paid.payments.filter((p: { state: string }) => p.state === "succeeded");
    expect(succeeded.map((p: { periodStart: number }) => p.periodStart)).toEqual([T, DEC_21]);
  });

  it("the last retry failing cancels it (cancelType payment_failed); no charge after that", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.failsLater);
    expect(s.state).toBe("active");
    let t = DEC_21;
    await runAt(t, s.id);
    for (const delay of RETRY_DELAYS_MS) {
      t += delay / 1000;
      await runAt(t, s.id);
    }
    const ended = await readBilled(app, s.id);
    expect(ended).toMatchObject({ state: "canceled", cancelType: "payment_failed", canceledAt: t, endAt: t, nextChargeDate: null });
    expect(ended.payments.map((p: { state: string; attempt: number }) => `${p.state}:${p.attempt}`)).toEqual(["succeeded:1", "failed:1", "failed:2", "failed:3", "failed:4"]);
    expect((await billingEventsOf(s.id)).slice(-2)).toEqual(["payment.failed", "subscription.canceled"]);
    expect((await runAt(FEB_21, s.id)).payments).toHaveLength(5);
  });

  it("a canceling subscription is not charged; an externally collected one renews without a payment", async () => {
    const canceling = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    await gql(app, CANCEL, { input: { id: canceling.id } });
    const external = await subscribe(app, PLANS.monthly);
    await renewDueSubscriptions({ now: at(DEC_21) });
    expect((await readBilled(app, canceling.id)).payments).toHaveLength(1);
    const renewed = await readBilled(app, external.id);
    expect(renewed).toMatchObject({ state: "active", collectionMethod: "external", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21, nextChargeDate: JAN_21, payments: [] });
    expect(await billingEventsOf(external.id)).toEqual(["subscription.created", "subscription.renewed"]);
  });

  it("a trial (initialChargeAt): trialing, then the first charge when it ends", async () => {
    const trialEnd = T + 14 * DAY;
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa, { initialChargeAt: trialEnd });
    expect(s).toMatchObject({ state: "trialing", currentPeriodEnd: trialEnd, nextChargeDate: trialEnd, payments: [] });
    const paid = await runAt(trialEnd, s.id);
    expect(paid).toMatchObject({ state: "active", currentPeriodStart: trialEnd });
    expect(paid.payments).toEqual([expect.objectContaining({ state: "succeeded", periodStart: trialEnd, billingReason: "subscription_cycle" })]);
  });
});

describe("exactly once", () => {
  it("a provider time-out after a successful charge: pending, then reconciled from the provider without a second charge", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    simulateTimeoutAfterCharge(1, s.id);
    const unknown = await runAt(DEC_21, s.id);
    expect(unknown.payments[1]).toMatchObject({ state: "pending", periodStart: DEC_21 });
    expect(unknown).toMatchObject({ state: "active", currentPeriodEnd: DEC_21 });
    expect(await providerChargesOf(s.id)).toHaveLength(2);
    // Not before its reconcile time; then from the provider's record.
    expect((await runAt(DEC_21 + 30, s.id)).payments[1].state).toBe("pending");
    const reconciled = await runAt(DEC_21 + 120, s.id);
    expect(reconciled.payments).toHaveLength(2);
    expect(reconciled.payments[1]).toMatchObject({ state: "succeeded", periodStart: DEC_21 });
    expect(reconciled).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21 });
    expect(await providerChargesOf(s.id)).toHaveLength(2);
  });

  it("the provider unreachable before charging: pending, then charged once with the same key", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    simulateProviderUnavailable(1, s.id);
    expect((await runAt(DEC_21, s.id)).payments[1]).toMatchObject({ state: "pending" });
    expect(await providerChargesOf(s.id)).toHaveLength(1);
    const paid = await runAt(DEC_21 + 120, s.id);
    expect(paid.payments).toHaveLength(2);
    expect(paid.payments[1]).toMatchObject({ state: "succeeded", attempt: 1, paidAt: DEC_21 + 120 });
    const charges = await providerChargesOf(s.id);
    expect(charges).toHaveLength(2);
    expect(charges[1]!.idempotencyKey).toBe((await db().payment.findUniqueOrThrow({ where: { id: paid.payments[1].id } })).idempotencyKey);
  });

  it("a worker that died holding a claim: its lease passes, the next run takes the period up once", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    // A claim taken and never finished, as by a process killed right after claiming.
    const { claimDueSubscriptions } = await import("@/lib/billing/renew-due");
    const claimed = await claimDueSubscriptions({ now: at(DEC_21), limit: 100 });
    expect(claimed.ids).toContain(s.id);
    expect((await runAt(DEC_21 + 60, s.id)).payments).toHaveLength(1);
    const paid = await runAt(DEC_21 + 301, s.id);
    expect(paid.payments).toHaveLength(2);
    expect(paid.payments[1]).toMatchObject({ state: "succeeded", periodStart: DEC_21 });
    expect(await providerChargesOf(s.id)).toHaveLength(2);
  });

  it("the database refuses a second collected payment of one period", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const first = await db().payment.findFirstOrThrow({ where: { subscriptionId: s.id } });
    await expect(
      db().payment.create({
        data: { schoolId: first.schoolId, subscriptionId: s.id, amount: "29.00", currency: "USD", state: "pending", periodStart: first.periodStart, attempt: 2 },
      }),
    ).rejects.toThrow();
  });
});

describe("cost of a run", () => {
  /** Every statement sent while `fn` runs (the test runs one thing at a time). */
  async function statements(fn: () => Promise<unknown>): Promise<string[]> {
    const sql: string[] = [];
    const stop = dbHandle().onStatement((s) => sql.push(s.sql));
    try {
      await fn();
      return sql;
    } finally {
      stop();
    }
  }

  it("per renewal, one statement (the provider's charge): the rest is per batch, whatever the number due", async () => {
    // What earlier tests left due at DEC_21 is renewed first, so each measured run holds only its own.
    await renewDueSubscriptions({ now: at(DEC_21) });
    const measure = async (count: number) => {
      const ids = [];
      for (let i = 0; i < count; i++) ids.push((await subscribeWithCard(app, PLANS.monthly, CARDS.visa)).id);
      const sql = await statements(() => renewDueSubscriptions({ now: at(DEC_21) }));
      for (const id of ids) expect((await readBilled(app, id)).currentPeriodStart).toBe(DEC_21);
      return sql;
    };
    const two = await measure(2);
    const eight = await measure(8);
    const charges = (sql: string[]) => sql.filter((s) => s.includes('INSERT INTO "TestProviderCharge"')).length;
    expect(charges(two)).toBe(2);
    expect(charges(eight)).toBe(8);
    expect(eight.length - two.length).toBe(6);
  });
});
