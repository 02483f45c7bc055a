// changeSubscriptionPlan (docs/decisions.md, "Billing", "Plan changes") through the Admin API over
// HTTP and the MCP staff tool, on a driven clock: an upgrade now with its prorated charge, a refused
// card changing nothing, a downgrade at the renewal, trials and external collection without a charge,
// a provider time-out never charged twice, each refusal writing nothing. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { RECONCILE_AFTER_MS } from "@/lib/billing/schedule";
import { clearTestProviderFaults, simulateTimeoutAfterCharge } from "@/lib/billing/test-provider";
import {
  ALREADY_ON_PLAN,
  CHANGE_CANCELING,
  CHANGE_ENDED,
  CHANGE_INCOMPLETE,
  CHANGE_LIFETIME,
  CHANGE_NOT_RECURRING,
  CHANGE_PAST_DUE,
  CHANGE_PAUSED,
  PAYMENT_IN_PROGRESS,
  PLAN_CLOSED,
  PLAN_INCOMPATIBLE,
  PLAN_NOT_FOUND,
  PROVIDER_NO_ANSWER,
  SAME_PLAN,
  prorationAmount,
} from "@/lib/billing/change-subscription-plan";
import { Prisma } from "@/lib/db/generated/client";
import { DEFAULT_DEMO_API_KEY } from "@/lib/demo-secrets";
import { CANCEL, DEMO_IDS, NO_PERMISSIONS_KEY, PLANS, TEST_NOW, adminAppForSuite, freshEmail, gql, subscribe } from "../admin-api/helpers";
import { call, mcpClient, text } from "../mcp/helpers";
import { CARDS, CHANGE_PLANS, PAYMENT_FIELDS, billingEventsOf, ensureChangePlans, providerChargesOf, subscribeWithCard } from "./helpers";

const app = adminAppForSuite();
const T = toUnixSeconds(TEST_NOW)!;
const DAY = 86_400;
const at = (unix: number) => new Date(unix * 1000);
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;

const SUBSCRIPTION = `id state planId scheduledPlanId currentPeriodStart currentPeriodEnd nextChargeDate plan { id price } payments { ${PAYMENT_FIELDS} planId }`;
const FIELDS = `errors subscription { ${SUBSCRIPTION} }`;
const readBilled = async (_app: unknown, id: string) => (await gql(app, `query G($id: String!) { subscription(id: $id) { ${SUBSCRIPTION} } }`, { id })).body.data.subscription;
const CHANGE = `mutation C($input: AdminChangeSubscriptionPlanInput!) { changeSubscriptionPlan(input: $input) { ${FIELDS} } }`;
const change = async (id: string, planId: string, options: Parameters<typeof gql>[3] = {}) =>
  (await gql(app, CHANGE, { input: { id, planId } }, options)).body.data.changeSubscriptionPlan;

/** What a refused call must leave as it was: the row, its payments and the events about it. */
async function snapshot(id: string) {
  const row = await db().subscription.findUniqueOrThrow({ where: { id } });
  return { row, payments: await db().payment.count({ where: { subscriptionId: id } }), events: await db().webhookEvent.count({ where: { subjectId: id } }) };
}

beforeAll(() => ensureChangePlans(DEMO_IDS.school));
afterEach(() => {
  setNow(TEST_NOW);
  clearTestProviderFaults();
});

describe("proration", () => {
  it("credits the unused time of the old price against the new price for the time left, to the cent", () => {
    const d = (v: string) => new Prisma.Decimal(v);
    const periodStart = at(T);
    const periodEnd = at(T + 30 * DAY);
    expect(prorationAmount({ from: d("29"), to: d("49"), periodStart, periodEnd, now: at(T + 10 * DAY) }).toFixed(2)).toBe("13.33");
    expect(prorationAmount({ from: d("29"), to: d("49"), periodStart, periodEnd, now: at(T) }).toFixed(2)).toBe("20.00");
    expect(prorationAmount({ from: d("29"), to: d("49"), periodStart, periodEnd, now: at(T + 30 * DAY) }).toFixed(2)).toBe("0.00");
    expect(prorationAmount({ from: d("29"), to: d("49"), periodStart, periodEnd, now: at(T + 40 * DAY) }).toFixed(2)).toBe("0.00");
    // Half a cent rounds up (20 × 1/8 = 2.5; 0.05 × 1/2 = 0.025 → 0.03).
    expect(prorationAmount({ from: d("10.00"), to: d("10.05"), periodStart, periodEnd, now: at(T + 15 * DAY) }).toFixed(2)).toBe("0.03");
  });
});

describe("upgrade", () => {
  it("takes effect now after the prorated charge; the renewal charges the new price", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    setNow(at(T + 10 * DAY));
    const r = await change(s.id, CHANGE_PLANS.plus);
    expect(r.errors).toEqual([]);
    expect(r.subscription).toMatchObject({ planId: CHANGE_PLANS.plus, plan: { price: "49.00" }, scheduledPlanId: null, currentPeriodEnd: DEC_21, nextChargeDate: DEC_21 });
    const proration = r.subscription.payments.at(-1);
    expect(proration).toMatchObject({
      amount: "13.33",
      state: "succeeded",
      billingReason: "subscription_update",
      periodStart: T + 10 * DAY,
      periodEnd: DEC_21,
      planId: CHANGE_PLANS.plus,
      paymentMethodId: "pm_card_visa",
      attempt: 1,
    });
    expect(await providerChargesOf(s.id)).toHaveLength(2);

    await renewDueSubscriptions({ now: at(DEC_21) });
    setNow(at(DEC_21));
    const renewed = await readBilled(app, s.id);
    expect(renewed.payments.map((p: { amount: string; billingReason: string }) => [p.billingReason, p.amount])).toEqual([
      ["subscription_create", "29.00"],
      ["subscription_update", "13.33"],
      ["subscription_cycle", "49.00"],
    ]);
    expect(await billingEventsOf(s.id)).toEqual([
      "subscription.created",
      "payment.succeeded",
      "subscription.activated",
      "payment.succeeded",
      "subscription.plan_changed",
      "payment.succeeded",
      "subscription.renewed",
    ]);
  });

  it("a refused card leaves the plan as it was, records the failed payment and answers the card's message", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.failsLater);
    setNow(at(T + 10 * DAY));
    const r = await change(s.id, CHANGE_PLANS.plus);
    expect(r).toEqual({ errors: ["Your card was declined."], subscription: null });
    const read = await readBilled(app, s.id);
    expect(read.plan.id).toBe(PLANS.monthly);
    expect(read.payments.at(-1)).toMatchObject({ state: "failed", billingReason: "subscription_update", failureCode: "generic_decline", planId: CHANGE_PLANS.plus });
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "payment.succeeded", "subscription.activated", "payment.failed"]);
    // A new card: the next attempt is a new charge (attempt 2), not the first answer replayed.
    await db().subscription.update({ where: { id: s.id }, data: { paymentMethodId: "pm_card_visa" } });
    setNow(at(T + 10 * DAY + 60));
    const again = await change(s.id, CHANGE_PLANS.plus);
    expect(again.errors).toEqual([]);
    expect(again.subscription.payments.at(-1)).toMatchObject({ state: "succeeded", attempt: 2, amount: "13.33" });
  });

  it("a provider time-out: the plan stays, and the retried change finds the charge made, never charging twice", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    setNow(at(T + 10 * DAY));
    simulateTimeoutAfterCharge(1, s.id);
    expect(await change(s.id, CHANGE_PLANS.plus)).toEqual({ errors: [PROVIDER_NO_ANSWER], subscription: null });
    expect((await readBilled(app, s.id)).plan.id).toBe(PLANS.monthly);
    // Another change meanwhile waits for this one.
    expect((await change(s.id, CHANGE_PLANS.basic)).errors).toEqual([PAYMENT_IN_PROGRESS]);
    const retried = await change(s.id, CHANGE_PLANS.plus);
    expect(retried.errors).toEqual([]);
    expect(retried.subscription.planId).toBe(CHANGE_PLANS.plus);
    expect(retried.subscription.payments.filter((p: { billingReason: string }) => p.billingReason === "subscription_update")).toHaveLength(1);
    expect((await providerChargesOf(s.id)).filter((c) => c.status === "succeeded")).toHaveLength(2);
  });

  it("a lost answer is reconciled by the renewal run when nobody retries", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    setNow(at(T + 10 * DAY));
    simulateTimeoutAfterCharge(1, s.id);
    expect((await change(s.id, CHANGE_PLANS.plus)).errors).toEqual([PROVIDER_NO_ANSWER]);
    await renewDueSubscriptions({ now: new Date((T + 10 * DAY) * 1000 + RECONCILE_AFTER_MS) });
    const read = await readBilled(app, s.id);
    expect(read.plan.id).toBe(CHANGE_PLANS.plus);
    expect(read.payments.at(-1)).toMatchObject({ state: "succeeded", billingReason: "subscription_update" });
    expect((await providerChargesOf(s.id)).filter((c) => c.status === "succeeded")).toHaveLength(2);
    expect((await billingEventsOf(s.id)).slice(-2)).toEqual(["payment.succeeded", "subscription.plan_changed"]);
  });

  it("externally collected and trialing subscriptions change now without a charge", async () => {
    const external = await subscribe(app, PLANS.monthly);
    const r = await change(external.id, CHANGE_PLANS.plus);
    expect(r.errors).toEqual([]);
    expect(r.subscription).toMatchObject({ planId: CHANGE_PLANS.plus, payments: [] });

    const trial = await subscribeWithCard(app, PLANS.monthly, CARDS.visa, { initialChargeAt: T + 7 * DAY });
    expect(trial.state).toBe("trialing");
    const down = await change(trial.id, CHANGE_PLANS.basic);
    expect(down.subscription).toMatchObject({ planId: CHANGE_PLANS.basic, scheduledPlanId: null, payments: [] });
    await renewDueSubscriptions({ now: at(T + 7 * DAY) });
    setNow(at(T + 7 * DAY));
    expect((await readBilled(app, trial.id)).payments.map((p: { amount: string }) => p.amount)).toEqual(["19.00"]);
    expect(await billingEventsOf(trial.id)).toEqual(["subscription.created", "subscription.plan_changed", "payment.succeeded", "subscription.renewed"]);
  });
});

describe("downgrade", () => {
  it("is scheduled for the period end: the renewal charges the new price and switches; choosing the current plan withdraws it", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    setNow(at(T + 5 * DAY));
    const r = await change(s.id, CHANGE_PLANS.basic);
    expect(r.errors).toEqual([]);
    expect(r.subscription).toMatchObject({ planId: PLANS.monthly, scheduledPlanId: CHANGE_PLANS.basic, nextChargeDate: DEC_21 });
    expect(await providerChargesOf(s.id)).toHaveLength(1);
    expect((await change(s.id, PLANS.monthly)).subscription).toMatchObject({ planId: PLANS.monthly, scheduledPlanId: null });
    expect((await change(s.id, CHANGE_PLANS.basic)).subscription).toMatchObject({ scheduledPlanId: CHANGE_PLANS.basic });

    await renewDueSubscriptions({ now: at(DEC_21) });
    setNow(at(DEC_21));
    const renewed = await readBilled(app, s.id);
    expect(renewed).toMatchObject({ plan: { id: CHANGE_PLANS.basic, price: "19.00" }, currentPeriodStart: DEC_21 });
    expect(renewed.payments.at(-1)).toMatchObject({ amount: "19.00", billingReason: "subscription_cycle", planId: CHANGE_PLANS.basic, state: "succeeded" });
    expect((await gql(app, `query($id: String!) { subscription(id: $id) { scheduledPlanId } }`, { id: s.id })).body.data.subscription.scheduledPlanId).toBeNull();
    expect(await billingEventsOf(s.id)).toEqual([
      "subscription.created",
      "payment.succeeded",
      "subscription.activated",
      "subscription.plan_change_scheduled",
      "subscription.plan_change_scheduled",
      "subscription.plan_change_scheduled",
      "payment.succeeded",
      "subscription.renewed",
      "subscription.plan_changed",
    ]);
  });

  it("an externally collected one switches at its renewal without a charge", async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect((await change(s.id, CHANGE_PLANS.basic)).subscription).toMatchObject({ planId: PLANS.monthly, scheduledPlanId: CHANGE_PLANS.basic });
    await renewDueSubscriptions({ now: at(DEC_21) });
    setNow(at(DEC_21));
    expect(await readBilled(app, s.id)).toMatchObject({ plan: { id: CHANGE_PLANS.basic }, payments: [] });
    expect((await billingEventsOf(s.id)).slice(-2)).toEqual(["subscription.renewed", "subscription.plan_changed"]);
  });

  it("a cancellation withdraws it: the period end ends the subscription", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    await change(s.id, CHANGE_PLANS.basic);
    const canceled = await gql(app, CANCEL, { input: { id: s.id, cancelAtPeriodEnd: true } });
    expect(canceled.body.data.cancelSubscription.errors).toEqual([]);
    expect((await db().subscription.findUniqueOrThrow({ where: { id: s.id } })).scheduledPlanId).toBeNull();
  });
});

describe("refused input writes nothing", () => {
  it("each rule, first failure wins", async () => {
    const live = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const lifetime = await subscribe(app, PLANS.lifetime);
    const bootcamp = await subscribe(app, PLANS.bootcamp);
    const canceled = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: canceled.id, cancelAtPeriodEnd: false } });
    const canceling = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: canceling.id, cancelAtPeriodEnd: true } });
    const paused = await subscribe(app, PLANS.monthly);
    await gql(app, `mutation P($input: AdminPauseSubscriptionInput!) { pauseSubscription(input: $input) { errors } }`, { input: { id: paused.id } });
    const pastDue = await subscribeWithCard(app, PLANS.monthly, CARDS.failsLater);
    await renewDueSubscriptions({ now: at(DEC_21) });
    expect((await db().subscription.findUniqueOrThrow({ where: { id: pastDue.id } })).state).toBe("past_due");
    const incomplete = (await gql(app, `mutation C($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id state } } }`, {
      input: { email: freshEmail("declined"), name: "D", planId: PLANS.monthly, collectionMethod: "charge_automatically", paymentMethod: CARDS.declined },
    })).body.data.createSubscription.subscription;
    const holder = await subscribe(app, PLANS.monthly);
    const holderEmail = (await db().subscription.findUniqueOrThrow({ where: { id: holder.id }, include: { user: true } })).user.email;
    await gql(app, `mutation C($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors } }`, { input: { email: holderEmail, planId: CHANGE_PLANS.plus } });
    const busy = await subscribe(app, PLANS.monthly);
    await db().subscription.update({ where: { id: busy.id }, data: { chargeLockedUntil: at(T + DAY) } });

    const cases: [string, string, string, string?][] = [
      [live.id, "00000000-0000-4000-8000-000000000000", PLAN_NOT_FOUND],
      [live.id, "not-a-uuid", PLAN_NOT_FOUND],
      [canceled.id, CHANGE_PLANS.plus, CHANGE_ENDED],
      [lifetime.id, CHANGE_PLANS.plus, CHANGE_LIFETIME],
      [bootcamp.id, CHANGE_PLANS.plus, CHANGE_NOT_RECURRING],
      [paused.id, CHANGE_PLANS.plus, CHANGE_PAUSED],
      [pastDue.id, CHANGE_PLANS.plus, CHANGE_PAST_DUE],
      [incomplete.id, CHANGE_PLANS.plus, CHANGE_INCOMPLETE],
      [canceling.id, CHANGE_PLANS.plus, CHANGE_CANCELING],
      [live.id, CHANGE_PLANS.draft, PLAN_CLOSED],
      [live.id, CHANGE_PLANS.euro, PLAN_INCOMPATIBLE],
      [live.id, PLANS.legacyAnnual, PLAN_INCOMPATIBLE],
      [live.id, PLANS.lifetime, PLAN_INCOMPATIBLE],
      [live.id, PLANS.monthly, SAME_PLAN],
      [holder.id, CHANGE_PLANS.plus, ALREADY_ON_PLAN],
      [busy.id, CHANGE_PLANS.plus, PAYMENT_IN_PROGRESS],
      [live.id, CHANGE_PLANS.plus, "Unauthorized", NO_PERMISSIONS_KEY],
    ];
    for (const [id, planId, message, key] of cases) {
      const before = await snapshot(id);
      expect(await change(id, planId, key ? { key } : {}), message).toEqual({ errors: [message], subscription: null });
      expect(await snapshot(id), message).toEqual(before);
    }
    expect(await change("00000000-0000-4000-8000-000000000000", CHANGE_PLANS.plus)).toEqual({ errors: ["Subscription not found"], subscription: null });
  });

  it("an Idempotency-Key retry answers the first result and charges once", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const headers = { "idempotency-key": `change-${s.id}` };
    const first = await gql(app, CHANGE, { input: { id: s.id, planId: CHANGE_PLANS.plus } }, { headers });
    const again = await gql(app, CHANGE, { input: { id: s.id, planId: CHANGE_PLANS.plus } }, { headers });
    expect(first.body.data.changeSubscriptionPlan.errors).toEqual([]);
    expect(again.body.data).toEqual(first.body.data);
    expect(await providerChargesOf(s.id)).toHaveLength(2);
  });
});

describe("MCP staff tool", () => {
  it("change_subscription_plan: dry run charges and writes nothing, idempotency_key replays, the rules' messages", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const client = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    const before = await snapshot(s.id);
    const dry = await call(client, "change_subscription_plan", { id: s.id, planId: CHANGE_PLANS.plus, dry_run: true });
    expect(dry.structuredContent).toMatchObject({ dryRun: true, subscription: { planId: CHANGE_PLANS.plus } });
    expect(await snapshot(s.id)).toEqual(before);
    expect(await providerChargesOf(s.id)).toHaveLength(1);

    const first = await call(client, "change_subscription_plan", { id: s.id, planId: CHANGE_PLANS.plus, idempotency_key: `mcp-change-${s.id}` });
    expect(first.structuredContent).toMatchObject({ dryRun: false, subscription: { planId: CHANGE_PLANS.plus, scheduledPlanId: null } });
    const replay = await call(client, "change_subscription_plan", { id: s.id, planId: CHANGE_PLANS.plus, idempotency_key: `mcp-change-${s.id}` });
    expect(replay._meta).toMatchObject({ "schoolhouse/idempotent_replay": true });
    expect(text(await call(client, "change_subscription_plan", { id: s.id, planId: CHANGE_PLANS.plus }))).toBe(SAME_PLAN);
    const down = await call(client, "change_subscription_plan", { id: s.id, planId: PLANS.monthly });
    expect(down.structuredContent).toMatchObject({ subscription: { planId: CHANGE_PLANS.plus, scheduledPlanId: PLANS.monthly } });
    expect(await providerChargesOf(s.id)).toHaveLength(2);
    await client.close();

    const none = await mcpClient(app, NO_PERMISSIONS_KEY);
    expect(text(await call(none, "change_subscription_plan", { id: s.id, planId: PLANS.monthly }))).toBe("Unauthorized");
    await none.close();
  });
});
