// Billing through a school's Stripe account (docs/decisions.md, "Billing", "Stripe"), over HTTP
// (Admin API, POST /api/webhooks/stripe), with the official SDK against the tests' Stripe emulator:
// purchase and renewal charged through Stripe, a renewal decline → past_due, a time-out after
// Stripe charged → reconciled without a second charge, refunds (ours and the dashboard's), and
// Stripe's webhooks: signature (the SDK's own test-header helper), duplicates, replays, another
// school's events. PGlite, and Postgres with TEST_DATABASE_URL.
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { now, setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { useStripeApi } from "@/lib/billing/stripe-client";
import { IDEMPOTENCY_METADATA } from "@/lib/billing/stripe-provider";
import { describeStripeAccount, removeStripeAccount, setStripeAccount } from "@/lib/billing/stripe-settings";
import { BAD_SIGNATURE, NOT_STRIPE_SCHOOL } from "@/lib/billing/stripe-webhook";
import { PROVIDER_NO_ANSWER } from "@/lib/billing/refund-payment";
import { startCheckout } from "@/lib/billing/start-checkout";
import { DEMO_IDS, PLANS, TEST_NOW, adminAppForSuite, freshEmail, gql } from "../admin-api/helpers";
import { PAYMENT_FIELDS, eventTypesOf, readBilled, subscribeWithCard } from "./helpers";
import { startStripeEmulator, type StripeEmulator } from "../../helpers/stripe-emulator";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const DEMO_KEY = "sk_test_demoSchoolAccount01";
const DEMO_WHSEC = "whsec_demoSchoolSigningSecret01";
const ACME_KEY = "sk_test_acmeSchoolAccount01";
const ACME_WHSEC = "whsec_acmeSchoolSigningSecret01";
const DEMO_HOST = "demo.localhost";
const ACME_HOST = "acme-training.localhost";

let emulator: StripeEmulator;
const app = adminAppForSuite({
  now: TEST_NOW,
});
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;
const JAN_21 = toUnixSeconds(new Date("2027-01-21T12:00:00Z"))!;
const at = (unix: number) => new Date(unix * 1000);
const sdk = (key: string) => new Stripe(key, { ...emulator.address, maxNetworkRetries: 0 });

beforeAll(async () => {
  emulator = await startStripeEmulator();
  useStripeApi(emulator.address, { timeoutMs: 2_000, maxNetworkRetries: 1 });
  await setStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.school, secretKey: DEMO_KEY, webhookSecret: DEMO_WHSEC });
  await setStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.acmeSchool, secretKey: ACME_KEY, webhookSecret: ACME_WHSEC });
});
afterAll(async () => {
  await removeStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.school });
  await removeStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.acmeSchool });
  useStripeApi(null);
  await emulator.close();
});
afterEach(() => setNow(TEST_NOW));

const intentsOfKey = (key: string) => emulator.paymentIntents(DEMO_KEY).filter((pi) => (pi.metadata as Record<string, string>)[IDEMPOTENCY_METADATA] === key);
const paymentRow = (id: string) => db().payment.findUniqueOrThrow({ where: { id } });

/** POSTs a Stripe event to the school's webhook endpoint, signed with `secret` by the SDK's test helper at `signedAt` (unix seconds). */
async function deliver(event: Record<string, unknown>, options: { secret?: string; host?: string; signedAt?: number } = {}) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? DEMO_WHSEC, timestamp: options.signedAt ?? toUnixSeconds(now())! });
  const res = await app.fetch("/api/webhooks/stripe", { method: "POST", headers: { host: options.host ?? DEMO_HOST, "content-type": "application/json", "stripe-signature": header }, body: payload });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A renewal left pending by a time-out after Stripe charged it (connection dropped on the first try and on the SDK's retry). */
async function pendingRenewal() {
  const s = await subscribeWithCard(app, PLANS.monthly, "pm_card_visa");
  emulator.dropResponsesAfterApplying("/v1/payment_intents", 2);
  await renewDueSubscriptions({ now: at(DEC_21) });
  const read = await readBilled(app, s.id);
  expect(read.payments[1]).toMatchObject({ state: "pending", provider: "stripe", periodStart: DEC_21 });
  const row = await paymentRow(read.payments[1].id);
  expect(intentsOfKey(row.idempotencyKey!)).toHaveLength(1);
  return { sub: read, payment: row, intent: intentsOfKey(row.idempotencyKey!)[0]! };
}

describe("billing through Stripe", () => {
  it("the school CLI's settings: the keys are sealed in the database, shown only as hints", async () => {
    expect(await describeStripeAccount({ schoolId: DEMO_IDS.school })).toEqual({ provider: "stripe", livemode: false, secretKey: "sk_test_…nt01", webhookSecret: "whsec_…et01" });
    const row = await db().schoolBilling.findUniqueOrThrow({ where: { schoolId: DEMO_IDS.school } });
    expect(JSON.stringify(row)).not.toContain(DEMO_KEY);
    expect(JSON.stringify(row)).not.toContain(DEMO_WHSEC);
    expect(row.stripeSecretKey).toMatch(/^v1\./);
  });

  it("purchase and renewal: both charged through the school's Stripe account with their idempotency keys", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, "pm_card_visa");
    expect(s).toMatchObject({ state: "active", nextChargeDate: DEC_21 });
    expect(s.payments[0]).toMatchObject({ state: "succeeded", provider: "stripe", providerPaymentId: expect.stringMatching(/^pi_/), paymentMethodId: expect.stringMatching(/^pm_/) });
    await renewDueSubscriptions({ now: at(DEC_21) });
    const renewed = await readBilled(app, s.id);
    expect(renewed).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21, nextChargeDate: JAN_21 });
    expect(renewed.payments[1]).toMatchObject({ state: "succeeded", provider: "stripe", billingReason: "subscription_cycle", amount: "29.00" });
    const row = await paymentRow(renewed.payments[1].id);
    expect(intentsOfKey(row.idempotencyKey!)).toEqual([expect.objectContaining({ id: row.providerPaymentId, amount: 2900, currency: "usd", status: "succeeded" })]);
    // Another school's account never sees it.
    expect(emulator.paymentIntents(ACME_KEY).some((pi) => pi.id === row.providerPaymentId)).toBe(false);
  });

  it("a renewal Stripe declines: past_due with Stripe's decline code, retried on the schedule", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, "pm_card_chargeCustomerFail");
    expect(s.state).toBe("active");
    await renewDueSubscriptions({ now: at(DEC_21) });
    const failed = await readBilled(app, s.id);
    expect(failed).toMatchObject({ state: "past_due", currentPeriodEnd: DEC_21, nextChargeDate: DEC_21 + 3 * 86_400 });
    expect(failed.payments[1]).toMatchObject({ state: "failed", provider: "stripe", failureCode: "generic_decline", providerPaymentId: expect.stringMatching(/^pi_/) });
    expect(await eventTypesOf(failed.payments[1].id)).toEqual(["payment.failed"]);
  });

  it("a time-out after Stripe charged: pending, then reconciled from Stripe (search by key) without a second charge", async () => {
    const { sub, payment } = await pendingRenewal();
    await renewDueSubscriptions({ now: at(DEC_21 + 120) });
    const read = await readBilled(app, sub.id);
    expect(read.payments).toHaveLength(2);
    expect(read.payments[1]).toMatchObject({ state: "succeeded", providerPaymentId: intentsOfKey(payment.idempotencyKey!)[0]!.id });
    expect(read).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21 });
    expect(intentsOfKey(payment.idempotencyKey!)).toHaveLength(1);
  });

  it("payment_intent.succeeded finishes the pending payment at once (re-read from Stripe); a duplicate or replay changes nothing", async () => {
    const { sub, payment, intent } = await pendingRenewal();
    // Seconds after the time-out, before any run would reconcile it.
    setNow(at(DEC_21 + 10));
    const event = emulator.event("payment_intent.succeeded", intent);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
    expect((await readBilled(app, sub.id)).payments[1]).toMatchObject({ state: "succeeded", providerPaymentId: intent.id, paidAt: DEC_21 + 10 });
    expect(await readBilled(app, sub.id)).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21 });
    const events = await eventTypesOf(payment.id);
    expect(events).toEqual(["payment.succeeded"]);
    // The same event again (Stripe redelivers; an attacker replays it inside the tolerance): answered, not applied.
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    // Replayed after the signature's 5 minutes: refused.
    const signedAt = DEC_21 + 10;
    setNow(at(signedAt + 301));
    expect(await deliver(event, { signedAt })).toEqual({ status: 400, body: { error: BAD_SIGNATURE } });
    // The run after it finds nothing pending: no second charge.
    await renewDueSubscriptions({ now: at(DEC_21 + 400) });
    expect(await eventTypesOf(payment.id)).toEqual(events);
    expect(intentsOfKey(payment.idempotencyKey!)).toHaveLength(1);
  });

  it("a forged event (wrong secret, altered body, no header) or a payload claiming success changes nothing", async () => {
    const { payment, intent } = await pendingRenewal();
    const snapshot = async () => ({ payment: await paymentRow(payment.id), events: await eventTypesOf(payment.id), seen: await db().stripeEvent.count() });
    const before = await snapshot();
    const event = emulator.event("payment_intent.succeeded", { ...intent, status: "succeeded" });
    expect(await deliver(event, { secret: "whsec_notTheSchoolsSecret0001" })).toEqual({ status: 400, body: { error: BAD_SIGNATURE } });
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: DEMO_WHSEC, timestamp: toUnixSeconds(TEST_NOW)! });
    const altered = await app.fetch("/api/webhooks/stripe", { method: "POST", headers: { host: DEMO_HOST, "stripe-signature": header }, body: payload.replace("payment_intent.succeeded", "charge.refunded") });
    expect(altered.status).toBe(400);
    const unsigned = await app.fetch("/api/webhooks/stripe", { method: "POST", headers: { host: DEMO_HOST }, body: payload });
    expect(unsigned.status).toBe(400);
    expect(await snapshot()).toEqual(before);
    // Correctly signed, about a PaymentIntent Stripe does not have: re-read, not found, nothing applied.
    const fake = emulator.event("payment_intent.succeeded", { ...intent, id: "pi_forged000000000000000000" });
    expect(await deliver(fake)).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    expect((await snapshot()).payment).toEqual(before.payment);
    // Correctly signed, naming no object at all: an empty id once read GET /v1/payment_intents/
    // (Stripe's "Unrecognized request URL") and answered 500 (found by the Stripe webhook fuzz).
    for (const [type, object] of [
      ["payment_intent.succeeded", { ...intent, id: "" }],
      ["payment_intent.canceled", { ...intent, id: ".." }],
      ["checkout.session.completed", { id: "." }],
      ["charge.refunded", { id: "ch_1/../../payment_intents" }],
      ["charge.refund.updated", { id: "re_x", charge: "" }],
    ] as const) {
      expect({ type, object, ...(await deliver(emulator.event(type, object))) }).toEqual({ type, object, status: 200, body: { received: true, outcome: "ignored" } });
    }
    expect((await snapshot()).payment).toEqual(before.payment);
  });

  it("another school's events: its secret does not verify here, and its account cannot reach this school's payments", async () => {
    const { payment, intent } = await pendingRenewal();
    const event = emulator.event("payment_intent.succeeded", intent);
    // Signed with acme's secret, sent to demo.
    expect(await deliver(event, { secret: ACME_WHSEC })).toEqual({ status: 400, body: { error: BAD_SIGNATURE } });
    // Sent to acme, signed with acme's secret: acme's key re-reads it, Stripe has no such object there.
    expect(await deliver(event, { secret: ACME_WHSEC, host: ACME_HOST })).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    expect((await paymentRow(payment.id)).state).toBe("pending");
    expect(await eventTypesOf(payment.id)).toEqual([]);
  });

  it("a school without Stripe has no Stripe endpoint (404), and its payments stay on the test provider", async () => {
    await removeStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.acmeSchool });
    try {
      const event = emulator.event("payment_intent.succeeded", { id: "pi_x" });
      expect(await deliver(event, { secret: ACME_WHSEC, host: ACME_HOST })).toEqual({ status: 404, body: { error: NOT_STRIPE_SCHOOL } });
    } finally {
      await setStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.acmeSchool, secretKey: ACME_KEY, webhookSecret: ACME_WHSEC });
    }
  });

  it("refunds through Stripe: refundPayment refunds the PaymentIntent once; charge.refunded then adds nothing", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, "pm_card_visa");
    const paymentId = s.payments[0].id as string;
    const r = await gql(app, `mutation R($input: AdminRefundPaymentInput!) { refundPayment(input: $input) { errors payment { ${PAYMENT_FIELDS} } } }`, { input: { paymentId, amount: "10.00" } });
    expect(r.body.data.refundPayment).toMatchObject({ errors: [], payment: { state: "succeeded", refundedAmount: "10.00" } });
    const pi = (await paymentRow(paymentId)).providerPaymentId!;
    const charge = (await sdk(DEMO_KEY).paymentIntents.retrieve(pi)).latest_charge as string;
    expect(await deliver(emulator.event("charge.refunded", { id: charge, object: "charge" }))).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    expect((await paymentRow(paymentId)).refundedAmount.toFixed(2)).toBe("10.00");
    expect(await db().paymentRefund.count({ where: { paymentId } })).toBe(1);
  });

  it("a refund made in Stripe's dashboard is recorded once by charge.refunded; one of ours that timed out is left to the staff's retry", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, "pm_card_visa");
    const paymentId = s.payments[0].id as string;
    emulator.dropResponsesAfterApplying("/v1/refunds", 2);
    const REFUND = `mutation R($input: AdminRefundPaymentInput!) { refundPayment(input: $input) { errors payment { ${PAYMENT_FIELDS} } } }`;
    expect((await gql(app, REFUND, { input: { paymentId, amount: "9.00" } })).body.data.refundPayment).toEqual({ errors: [PROVIDER_NO_ANSWER], payment: null });
    const pi = (await paymentRow(paymentId)).providerPaymentId!;
    // Made in Stripe's dashboard meanwhile.
    await sdk(DEMO_KEY).refunds.create({ payment_intent: pi, amount: 500 });
    const charge = (await sdk(DEMO_KEY).paymentIntents.retrieve(pi)).latest_charge as string;
    expect(await deliver(emulator.event("charge.refunded", { id: charge, object: "charge" }))).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
    const states = async () => (await db().paymentRefund.findMany({ where: { paymentId } })).map((x) => [x.amount.toFixed(2), x.state]).sort();
    expect(await states()).toEqual([["5.00", "succeeded"], ["9.00", "pending"]]);
    expect((await paymentRow(paymentId)).refundedAmount.toFixed(2)).toBe("5.00");
    // A second charge.refunded (another event id, same state): nothing new.
    expect(await deliver(emulator.event("charge.refunded", { id: charge, object: "charge" }))).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    // The staff's retry resumes the pending refund with its key: Stripe answers with the refund it made, none is made twice.
    expect((await gql(app, REFUND, { input: { paymentId, amount: "9.00" } })).body.data.refundPayment.payment).toMatchObject({ refundedAmount: "14.00" });
    expect(await states()).toEqual([["5.00", "succeeded"], ["9.00", "succeeded"]]);
    expect((await sdk(DEMO_KEY).refunds.list({ payment_intent: pi })).data).toHaveLength(2);
    expect(await eventTypesOf(paymentId)).toEqual(["payment.succeeded", "payment.refunded", "payment.refunded"]);
  });

  it("checkout.session.completed completes our checkout from Stripe's session, once; an unpaid session's event creates nothing", async () => {
    const started = await startCheckout({
      schoolId: DEMO_IDS.school, input: { planId: PLANS.monthly, email: freshEmail("checkout"), name: "Checkout Member" }, member: null, origin: `http://${DEMO_HOST}`, now: now(),
    });
    expect(started.errors).toEqual([]);
    const checkout = await db().checkoutSession.findUniqueOrThrow({ where: { id: started.record!.checkoutId } });
    expect(checkout).toMatchObject({ provider: "stripe", providerSessionId: expect.stringMatching(/^cs_test_/) });
    expect(started.record!.url).toContain(checkout.providerSessionId);
    const sessionId = checkout.providerSessionId!;
    // Claimed complete before the member paid: Stripe's session says open, nothing is created.
    expect(await deliver(emulator.event("checkout.session.completed", { id: sessionId, object: "checkout.session" }))).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: checkout.id } })).subscriptionId).toBeNull();
    await emulator.payCheckout(DEMO_KEY, sessionId, "pm_card_visa");
    expect(await deliver(emulator.event("checkout.session.completed", { id: sessionId, object: "checkout.session" }))).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
    const done = await db().checkoutSession.findUniqueOrThrow({ where: { id: checkout.id } });
    expect(done.status).toBe("complete");
    const sub = await readBilled(app, done.subscriptionId!);
    const intent = emulator.paymentIntents(DEMO_KEY).find((pi) => (pi.metadata as Record<string, string>).schoolhouse_checkout_id === checkout.id)!;
    expect(sub).toMatchObject({ state: "active", collectionMethod: "charge_automatically" });
    expect(sub.payments).toEqual([expect.objectContaining({ state: "succeeded", provider: "stripe", providerPaymentId: intent.id, amount: "29.00" })]);
    // Stripe sends it again under another id (or the member's return comes too): nothing twice.
    await deliver(emulator.event("checkout.session.completed", { id: sessionId, object: "checkout.session" }));
    expect((await readBilled(app, done.subscriptionId!)).payments).toHaveLength(1);
    const { userId } = await db().subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(await db().subscription.count({ where: { userId } })).toBe(1);
  });

  it("a course bought once through Stripe Checkout: payment mode without saving the card; checkout.session.completed enrolls once with a one-time payment", async () => {
    const INTRO_TO_SQL = "5c400000-0000-4000-8000-000700000001";
    const email = freshEmail("stripe-course");
    const started = await startCheckout({ schoolId: DEMO_IDS.school, input: { courseId: INTRO_TO_SQL, email, name: "Stripe Course" }, member: null, origin: `http://${DEMO_HOST}`, now: now() });
    expect(started.errors).toEqual([]);
    const checkout = await db().checkoutSession.findUniqueOrThrow({ where: { id: started.record!.checkoutId } });
    const sessionId = checkout.providerSessionId!;
    await emulator.payCheckout(DEMO_KEY, sessionId, "pm_card_visa");
    expect(await deliver(emulator.event("checkout.session.completed", { id: sessionId, object: "checkout.session" }))).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
    await deliver(emulator.event("checkout.session.completed", { id: sessionId, object: "checkout.session" }));
    const done = await db().checkoutSession.findUniqueOrThrow({ where: { id: checkout.id } });
    expect(done).toMatchObject({ status: "complete", subscriptionId: null });
    const intent = emulator.paymentIntents(DEMO_KEY).find((pi) => (pi.metadata as Record<string, string>).schoolhouse_checkout_id === checkout.id)!;
    expect(intent).toMatchObject({ amount: 4900, status: "succeeded" });
    expect(intent.setup_future_usage ?? null).toBeNull();
    const payments = await db().payment.findMany({ where: { userId: done.userId! } });
    expect(payments).toEqual([expect.objectContaining({ id: done.paymentId, provider: "stripe", providerPaymentId: intent.id, billingReason: "one_time", subscriptionId: null, courseId: INTRO_TO_SQL })]);
    expect(await db().enrollment.count({ where: { userId: done.userId!, courseId: INTRO_TO_SQL } })).toBe(1);
  });
});
