// POST /api/webhooks/stripe for a school with a Stripe account (seeded, fast-check): random bodies
// and signatures, events signed with a wrong secret or too long ago, and correctly signed events of
// any type naming objects Stripe (the tests' emulator) does not have. Every answer below 500,
// nothing leaked, no refused request recorded, and no payment, refund, subscription or checkout
// changed by any of them (every object is re-read from Stripe before anything is applied).
import fc from "fast-check";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useStripeApi } from "@/lib/billing/stripe-client";
import { removeStripeAccount, setStripeAccount } from "@/lib/billing/stripe-settings";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { startStripeEmulator, type StripeEmulator } from "../../helpers/stripe-emulator";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const RUNS = Number(process.env.FUZZ_RUNS_STRIPE ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const LEAK = [/\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+/, /node_modules/, /prisma|P20\d\d/i, /\bSELECT\b.+\bFROM\b/i, /sk_test_|whsec_/];
const KEY = "sk_test_fuzzSchoolAccount0001";
const WHSEC = "whsec_fuzzSchoolSigningSecret01";

let app: AppServer;
let emulator: StripeEmulator;

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  emulator = await startStripeEmulator();
  useStripeApi(emulator.address, { timeoutMs: 2_000, maxNetworkRetries: 0 });
  await setStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.school, secretKey: KEY, webhookSecret: WHSEC });
  app = await startAppServer({ host: "demo.localhost" });
});
afterAll(async () => {
  await app?.close();
  await removeStripeAccount({ actor: TEST_ACTOR, now: new Date(), schoolId: DEMO_IDS.school });
  useStripeApi(null);
  await emulator?.close();
});

async function state() {
  const d = db();
  const [payments, refunds, subscriptions, checkouts] = await Promise.all([
    d.payment.findMany({ select: { id: true, state: true, refundedAmount: true }, orderBy: { id: "asc" } }),
    d.paymentRefund.count(),
    d.subscription.findMany({ select: { id: true, state: true, currentPeriodEnd: true }, orderBy: { id: "asc" } }),
    d.checkoutSession.count(),
  ]);
  return { payments, refunds, subscriptions, checkouts };
}

const TYPES = ["payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.canceled", "charge.refunded", "charge.refund.updated", "checkout.session.completed", "checkout.session.async_payment_succeeded", "customer.created", "x"];
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("", "pi_", "ch_", "cs_test_", "' OR 1=1 --", "\u0000", "x".repeat(3000), "../../etc", ".", ".."));
const objectOf = fc.record({ id: fc.oneof(text, fc.integer(), fc.constant(null)), object: text, client_reference_id: fc.oneof(text, fc.uuid()), charge: text, metadata: fc.dictionary(text, text, { maxKeys: 2 }) }, { requiredKeys: [] });

type Sent = { body: string; signature: string | null; signed: boolean };
const now = () => Math.floor(Date.now() / 1000);
const signed = (payload: string, secret: string, timestamp: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

const request: fc.Arbitrary<Sent> = fc.oneof(
  // Noise: any body, any header.
  fc.tuple(text, fc.option(text)).map(([body, signature]) => ({ body, signature: signature?.replace(/[^\t\x20-\x7e]/g, "?") ?? null, signed: false })),
  // An event signed with a wrong secret, or this school's secret too long ago.
  fc.tuple(fc.constantFrom(...TYPES), objectOf, fc.constantFrom("wrong", "old")).map(([type, object, how]) => {
    const body = JSON.stringify(emulator.event(type, object as Record<string, unknown>));
    return { body, signature: how === "wrong" ? signed(body, "whsec_someoneElsesSecret0000", now()) : signed(body, WHSEC, now() - 3600), signed: false };
  }),
  // Correctly signed, naming objects Stripe does not have (or none, or malformed ones).
  fc.tuple(fc.constantFrom(...TYPES), objectOf, fc.option(fc.oneof(text, fc.constant(`evt_${"1".repeat(24)}`)))).map(([type, object, id]) => {
    const body = JSON.stringify(emulator.event(type, object as Record<string, unknown>, id ? { id } : {}));
    return { body, signature: signed(body, WHSEC, now()), signed: true };
  }),
);

describe("Stripe webhook (seeded fuzz)", () => {
  it(`${RUNS} deliveries: no 5xx, no leak; refused ones recorded nowhere; nothing billed changes`, async () => {
    const before = await state();
    const seenBefore = await db().stripeEvent.count();
    let accepted = 0;
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const seen = await db().stripeEvent.count();
        const res = await app.fetch("/api/webhooks/stripe", {
          method: "POST",
          headers: { "content-type": "application/json", ...(r.signature === null ? {} : { "stripe-signature": r.signature }) },
          body: r.body,
        });
        const body = await res.text();
        const leak = LEAK.find((re) => re.test(body));
        if ((res.status >= 500 || leak) && failures.length < 20) failures.push(`${res.status} ${leak ?? ""} ${r.body.slice(0, 200)} → ${body.slice(0, 200)}`);
        const recorded = (await db().stripeEvent.count()) - seen;
        if (res.status !== 200 && recorded !== 0) failures.push(`refused (${res.status}) but recorded: ${r.body.slice(0, 200)}`);
        if (!r.signed && res.status === 200) failures.push(`accepted without a valid signature: ${r.body.slice(0, 200)}`);
        if (res.status === 200 && !body.includes("duplicate")) accepted += recorded;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);
    expect((await db().stripeEvent.count()) - seenBefore).toBe(accepted);
  }, 20 * 60_000);
});
