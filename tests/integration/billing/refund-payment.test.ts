// refundPayment (docs/decisions.md, "Billing", "Refunds") through the Admin API over HTTP and the MCP
// staff tool: full and partial refunds through the test provider with an idempotency key, a retry
// after a time-out never refunds twice, refused input writes nothing, a refund leaves the
// subscription's access alone; a fast-check sequence of pause/resume/refund against a tiny model.
// PGlite, and Postgres with TEST_DATABASE_URL.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { clearTestProviderFaults, simulateProviderUnavailable, simulateTimeoutAfterCharge } from "@/lib/billing/test-provider";
import { ALREADY_REFUNDED, INVALID_AMOUNT, NOT_REFUNDABLE, PAYMENT_NOT_FOUND, PROVIDER_NO_ANSWER, REFUND_IN_PROGRESS, amountTooLarge } from "@/lib/billing/refund-payment";
import { DEFAULT_DEMO_API_KEY } from "@/lib/demo-secrets";
import { NO_PERMISSIONS_KEY, PLANS, TEST_NOW, adminAppForSuite, freshEmail, gql } from "../admin-api/helpers";
import { call, mcpClient, text } from "../mcp/helpers";
import { CARDS, CREATE_BILLED, PAYMENT_FIELDS, eventTypesOf, readBilled, subscribeWithCard } from "./helpers";

const app = adminAppForSuite();
const T = toUnixSeconds(TEST_NOW)!;

const REFUND = `mutation R($input: AdminRefundPaymentInput!) { refundPayment(input: $input) { errors payment { ${PAYMENT_FIELDS} } } }`;
const PAUSE = `mutation P($input: AdminPauseSubscriptionInput!) { pauseSubscription(input: $input) { errors subscription { id } } }`;
const RESUME = `mutation S($input: AdminResumeSubscriptionInput!) { resumeSubscription(input: $input) { errors subscription { id } } }`;

const refund = async (paymentId: string, amount?: string, options: Parameters<typeof gql>[3] = {}) =>
  (await gql(app, REFUND, { input: { paymentId, ...(amount === undefined ? {} : { amount }) } }, options)).body.data.refundPayment;

/** A subscription paid by card at purchase, and its one succeeded payment of 29.00. */
async function paid() {
  const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
  return { sub: s, payment: s.payments[0] as { id: string; providerPaymentId: string } };
}

/** What a refused call must leave as it was. */
async function snapshot(paymentId: string) {
  const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
  return {
    payment,
    refunds: await db().paymentRefund.count({ where: { paymentId } }),
    ledger: await db().testProviderRefund.count({ where: { chargeId: payment.providerPaymentId ?? "" } }),
    events: await db().webhookEvent.count({ where: { subjectId: paymentId } }),
  };
}

const ledgerOf = async (chargeId: string) => (await db().testProviderRefund.findMany({ where: { chargeId } })).map((r) => r.amount.toFixed(2)).sort();

afterEach(() => {
  setNow(TEST_NOW);
  clearTestProviderFaults();
});

describe("refundPayment", () => {
  it("in full: state refunded, payment.refunded, one refund at the provider; the subscription keeps its access", async () => {
    const { sub, payment } = await paid();
    const r = await refund(payment.id);
    expect(r.errors).toEqual([]);
    expect(r.payment).toMatchObject({ id: payment.id, amount: "29.00", state: "refunded", refundedAmount: "29.00", refundedAt: T });
    expect(await ledgerOf(payment.providerPaymentId)).toEqual(["29.00"]);
    expect(await eventTypesOf(payment.id)).toEqual(["payment.succeeded", "payment.refunded"]);
    expect(await readBilled(app, sub.id)).toMatchObject({ state: "active" });
    expect(await refund(payment.id)).toEqual({ errors: [ALREADY_REFUNDED], payment: null });
    // The member's refund mail, written with the refund (lib/mail/billing-mails.ts), once.
    const mails = await db().mailMessage.findMany({ where: { kind: "payment-refunded", params: { path: ["paymentId"], equals: payment.id } } });
    expect(mails.map((m) => m.params)).toEqual([expect.objectContaining({ refundedAmount: "29.00", currency: "USD" })]);
  });

  it("in parts: up to what remains, then refunded; more than remains is refused and writes nothing", async () => {
    const { payment } = await paid();
    expect((await refund(payment.id, "10.5")).payment).toMatchObject({ state: "succeeded", refundedAmount: "10.50" });
    const before = await snapshot(payment.id);
    expect(await refund(payment.id, "18.51")).toEqual({ errors: [amountTooLarge("18.50")], payment: null });
    expect(await snapshot(payment.id)).toEqual(before);
    expect((await refund(payment.id, "18.50")).payment).toMatchObject({ state: "refunded", refundedAmount: "29.00" });
    expect(await ledgerOf(payment.providerPaymentId)).toEqual(["10.50", "18.50"]);
    expect(await eventTypesOf(payment.id)).toEqual(["payment.succeeded", "payment.refunded", "payment.refunded"]);
  });

  it("a provider time-out after refunding: the retry with the same amount resumes the same refund, never a second", async () => {
    const { payment } = await paid();
    simulateTimeoutAfterCharge(1);
    expect(await refund(payment.id, "5.00")).toEqual({ errors: [PROVIDER_NO_ANSWER], payment: null });
    expect(await ledgerOf(payment.providerPaymentId)).toEqual(["5.00"]);
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).refundedAmount.toFixed(2)).toBe("0.00");
    // Another amount while that one is unresolved is refused.
    expect(await refund(payment.id, "6.00")).toEqual({ errors: [REFUND_IN_PROGRESS], payment: null });
    expect((await refund(payment.id, "5.00")).payment).toMatchObject({ refundedAmount: "5.00", state: "succeeded" });
    expect(await ledgerOf(payment.providerPaymentId)).toEqual(["5.00"]);
    expect(await eventTypesOf(payment.id)).toEqual(["payment.succeeded", "payment.refunded"]);
  });

  it("the provider unreachable before refunding: nothing refunded, the retry refunds once", async () => {
    const { payment } = await paid();
    simulateProviderUnavailable(1);
    expect(await refund(payment.id)).toEqual({ errors: [PROVIDER_NO_ANSWER], payment: null });
    expect(await ledgerOf(payment.providerPaymentId)).toEqual([]);
    expect((await refund(payment.id)).payment).toMatchObject({ state: "refunded" });
    expect(await ledgerOf(payment.providerPaymentId)).toEqual(["29.00"]);
  });

  it("an Idempotency-Key retry answers the first result and refunds once", async () => {
    const { payment } = await paid();
    const headers = { "idempotency-key": `refund-${payment.id}` };
    const first = await gql(app, REFUND, { input: { paymentId: payment.id, amount: "1.00" } }, { headers });
    const again = await gql(app, REFUND, { input: { paymentId: payment.id, amount: "1.00" } }, { headers });
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await ledgerOf(payment.providerPaymentId)).toEqual(["1.00"]);
  });

  it("refused input writes nothing", async () => {
    const { payment } = await paid();
    const declined = (
      await gql(app, CREATE_BILLED, {
        input: { email: freshEmail("declined"), name: "D", planId: PLANS.monthly, collectionMethod: "charge_automatically", paymentMethod: CARDS.declined },
      })
    ).body.data.createSubscription.subscription;
    const failedPayment = (await readBilled(app, declined.id)).payments[0];
    expect(failedPayment.state).toBe("failed");
    const cases: [string, string | undefined, string, string?][] = [
      [failedPayment.id, undefined, NOT_REFUNDABLE],
      ...["0", "0.00", "-1", "1.001", "abc", "", " 1", "1e2", "99999999999"].map((a): [string, string, string] => [payment.id, a, INVALID_AMOUNT]),
      [payment.id, "29.01", amountTooLarge("29.00")],
      [payment.id, undefined, "Unauthorized", NO_PERMISSIONS_KEY],
    ];
    for (const [id, amount, message, key] of cases) {
      const before = await snapshot(id);
      expect(await refund(id, amount, key ? { key } : {}), `${amount} ${message}`).toEqual({ errors: [message], payment: null });
      expect(await snapshot(id)).toEqual(before);
    }
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope", declined.id]) expect(await refund(id)).toEqual({ errors: [PAYMENT_NOT_FOUND], payment: null });
  });

  it("MCP refund_payment: dry run writes nothing, idempotency_key replays, the rules' messages", async () => {
    const { payment } = await paid();
    const client = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    const before = await snapshot(payment.id);
    const dry = await call(client, "refund_payment", { paymentId: payment.id, amount: "4.00", dry_run: true });
    expect(dry.structuredContent).toMatchObject({ dryRun: true, payment: { refundedAmount: "4.00", state: "succeeded" } });
    expect(await snapshot(payment.id)).toEqual(before);
    const key = `mcp-refund-${payment.id}`;
    const first = await call(client, "refund_payment", { paymentId: payment.id, amount: "4.00", idempotency_key: key });
    expect(first.structuredContent).toMatchObject({ dryRun: false, payment: { refundedAmount: "4.00" } });
    const replay = await call(client, "refund_payment", { paymentId: payment.id, amount: "4.00", idempotency_key: key });
    expect(replay._meta).toMatchObject({ "schoolhouse/idempotent_replay": true });
    expect(await ledgerOf(payment.providerPaymentId)).toEqual(["4.00"]);
    expect(text(await call(client, "refund_payment", { paymentId: payment.id, amount: "26.00" }))).toBe(amountTooLarge("25.00"));
    await client.close();
    const none = await mcpClient(app, NO_PERMISSIONS_KEY);
    expect(text(await call(none, "refund_payment", { paymentId: payment.id }))).toBe("Unauthorized");
    await none.close();
  });
});

describe("pause, resume and refund against a model", () => {
  type Op = { kind: "pause" } | { kind: "resume" } | { kind: "refund"; cents: number | null };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.constant<Op>({ kind: "pause" }),
    fc.constant<Op>({ kind: "resume" }),
    fc.option(fc.integer({ min: 0, max: 3500 }), { nil: null }).map((cents): Op => ({ kind: "refund", cents })),
  );

  it("money (succeeded minus refunded) and the paused flag follow the model; refused steps write nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        const { sub, payment } = await paid();
        const model = { paused: false, refundedCents: 0 };
        for (const o of ops) {
          const beforeEvents = await db().webhookEvent.count({ where: { subjectId: { in: [sub.id, payment.id] } } });
          let ok: boolean;
          if (o.kind === "pause") {
            ok = !model.paused;
            expect((await gql(app, PAUSE, { input: { id: sub.id } })).body.data.pauseSubscription.errors.length === 0).toBe(ok);
            if (ok) model.paused = true;
          } else if (o.kind === "resume") {
            ok = model.paused;
            expect((await gql(app, RESUME, { input: { id: sub.id } })).body.data.resumeSubscription.errors.length === 0).toBe(ok);
            if (ok) model.paused = false;
          } else {
            const remaining = 2900 - model.refundedCents;
            const cents = o.cents ?? remaining;
            ok = remaining > 0 && cents > 0 && cents <= remaining;
            const r = await refund(payment.id, o.cents === null ? undefined : (o.cents / 100).toFixed(2));
            expect(r.errors.length === 0, JSON.stringify([o, model, r.errors])).toBe(ok);
            if (ok) model.refundedCents += cents;
          }
          const afterEvents = await db().webhookEvent.count({ where: { subjectId: { in: [sub.id, payment.id] } } });
          expect(afterEvents - beforeEvents).toBe(ok ? 1 : 0);
        }
        const payments = await db().payment.findMany({ where: { subscriptionId: sub.id } });
        const collected = payments.filter((p) => p.state === "succeeded" || p.state === "refunded");
        const net = collected.reduce((sum, p) => sum + Math.round(p.amount.toNumber() * 100) - Math.round(p.refundedAmount.toNumber() * 100), 0);
        expect(net).toBe(2900 - model.refundedCents);
        const ledger = await db().testProviderRefund.aggregate({ where: { chargeId: payment.providerPaymentId }, _sum: { amount: true } });
        expect(Math.round((ledger._sum.amount?.toNumber() ?? 0) * 100)).toBe(model.refundedCents);
        expect((await db().subscription.findUniqueOrThrow({ where: { id: sub.id } })).pausedAt !== null).toBe(model.paused);
      }),
      { numRuns: 12, seed: 2611 },
    );
  });
});
