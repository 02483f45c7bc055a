// The Stripe adapter (lib/billing/stripe-provider.ts) through the official SDK against the tests'
// Stripe emulator (tests/helpers/stripe-emulator.ts: stripe-stateful-mock's charges and refunds,
// and PaymentIntents, PaymentMethods and Checkout Sessions after Stripe's documented shapes). What
// this proves and what it does not: docs/deploy.md, "Stripe".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderUnavailableError } from "@/lib/billing/provider";
import { useStripeApi, toMinorUnits, fromMinorUnits } from "@/lib/billing/stripe-client";
import { IDEMPOTENCY_METADATA, createStripeProvider } from "@/lib/billing/stripe-provider";
import { startStripeEmulator, type StripeEmulator } from "../../helpers/stripe-emulator";

const KEY = "sk_test_adapterAccount0001";
let emulator: StripeEmulator;
const provider = () => createStripeProvider({ secretKey: KEY });
let counter = 0;
const key = (tag: string) => `${tag}_${Date.now()}_${counter++}`;

beforeAll(async () => {
  emulator = await startStripeEmulator();
  useStripeApi(emulator.address, { timeoutMs: 2_000, maxNetworkRetries: 1 });
});
afterAll(async () => {
  useStripeApi(null);
  await emulator.close();
});

async function saved(card: string): Promise<string> {
  const r = await provider().attachPaymentMethod({ paymentMethod: card });
  if (!r.ok) throw new Error(r.failureMessage);
  return r.paymentMethodId;
}

describe("Stripe adapter", () => {
  it("attaches a test token to a new Customer; the saved method's id is Stripe's new one; an unknown method is refused", async () => {
    const pm = await saved("pm_card_visa");
    expect(pm).toMatch(/^pm_[0-9a-f]{24}$/);
    // Already attached (as a Checkout Session leaves it): kept as it is.
    expect(await provider().attachPaymentMethod({ paymentMethod: pm })).toEqual({ ok: true, paymentMethodId: pm });
    expect(await provider().attachPaymentMethod({ paymentMethod: "pm_nope" })).toMatchObject({ ok: false, failureCode: "resource_missing" });
  });

  it("a reference that cannot be a Stripe id is refused as an unknown one, without a request to Stripe", async () => {
    const before = emulator.requests().length;
    for (const reference of ["", ".", "..", "pm_a/b", "../v1/customers", "pm card", "pm_é", "x".repeat(256)]) {
      expect(await provider().attachPaymentMethod({ paymentMethod: reference }), reference).toEqual({ ok: false, failureCode: "resource_missing", failureMessage: expect.stringContaining("No such PaymentMethod") });
      const r = await provider().charge({ idempotencyKey: key("shape"), amount: "29.00", currency: "USD", paymentMethodId: reference, offSession: true });
      expect(r, reference).toMatchObject({ status: "failed", failureCode: "resource_missing", providerPaymentId: "" });
    }
    expect(emulator.requests().slice(before)).toEqual([]);
    // The longest id of Stripe's shape is still asked about.
    expect(await provider().attachPaymentMethod({ paymentMethod: "x".repeat(255) })).toMatchObject({ ok: false, failureCode: "resource_missing" });
    expect(emulator.requests().slice(before)).toEqual([`GET /v1/payment_methods/${"x".repeat(255)}`]);
  });

  it("charges off-session with the idempotency key: the same key is the same PaymentIntent, never a second charge", async () => {
    const pm = await saved("pm_card_visa");
    const k = key("renewal");
    const request = { idempotencyKey: k, amount: "29.00", currency: "USD", paymentMethodId: pm, offSession: true };
    const first = await provider().charge(request);
    expect(first).toMatchObject({ status: "succeeded", providerPaymentId: expect.stringMatching(/^pi_/) });
    expect(await provider().charge(request)).toEqual(first);
    const intents = emulator.paymentIntents(KEY).filter((pi) => (pi.metadata as Record<string, string>)[IDEMPOTENCY_METADATA] === k);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ amount: 2900, currency: "usd", status: "succeeded", customer: expect.stringMatching(/^cus_/) });
    expect(await provider().findCharge({ idempotencyKey: k })).toEqual(first);
    expect(await provider().findCharge({ idempotencyKey: key("never-sent") })).toBeNull();
    // The same key with other parameters is Stripe's idempotency_error: a bug, not a charge outcome.
    await expect(provider().charge({ ...request, amount: "30.00" })).rejects.toThrow(/same parameters/);
  });

  it("a decline is a failed charge with Stripe's decline code and the PaymentIntent it failed; findCharge finds it failed", async () => {
    for (const [card, code] of [["pm_card_chargeDeclined", "generic_decline"], ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds"]] as const) {
      const k = key("declined");
      const r = await provider().charge({ idempotencyKey: k, amount: "29.00", currency: "USD", paymentMethodId: await saved(card), offSession: true });
      expect(r).toMatchObject({ status: "failed", failureCode: code, providerPaymentId: expect.stringMatching(/^pi_/) });
      expect(await provider().findCharge({ idempotencyKey: k })).toMatchObject({ status: "failed", failureCode: code });
    }
  });

  it("a card that needs 3D Secure fails off-session with authentication_required (no member to authenticate)", async () => {
    const r = await provider().charge({ idempotencyKey: key("sca"), amount: "29.00", currency: "USD", paymentMethodId: await saved("pm_card_authenticationRequired"), offSession: true });
    expect(r).toMatchObject({ status: "failed", failureCode: "authentication_required" });
  });

  it("a detached or unknown payment method is a failed charge, not an unknown outcome", async () => {
    const r = await provider().charge({ idempotencyKey: key("gone"), amount: "29.00", currency: "USD", paymentMethodId: "pm_gone", offSession: true });
    expect(r).toMatchObject({ status: "failed", failureCode: "resource_missing", providerPaymentId: "" });
  });

  it("no answer after charging (connection dropped, SDK retry dropped too): ProviderUnavailableError; findCharge then finds the one charge", async () => {
    const k = key("timeout");
    const pm = await saved("pm_card_visa");
    emulator.dropResponsesAfterApplying("/v1/payment_intents", 2);
    await expect(provider().charge({ idempotencyKey: k, amount: "29.00", currency: "USD", paymentMethodId: pm, offSession: true })).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await provider().findCharge({ idempotencyKey: k })).toMatchObject({ status: "succeeded" });
    expect(emulator.paymentIntents(KEY).filter((pi) => (pi.metadata as Record<string, string>)[IDEMPOTENCY_METADATA] === k)).toHaveLength(1);
  });

  it("a 5xx answer is an unknown outcome; the SDK's own retry with the same key succeeds once", async () => {
    const pm = await saved("pm_card_visa");
    emulator.failWithServerError("/v1/payment_intents", 2);
    await expect(provider().charge({ idempotencyKey: key("5xx"), amount: "29.00", currency: "USD", paymentMethodId: pm, offSession: true })).rejects.toBeInstanceOf(ProviderUnavailableError);
    emulator.failWithServerError("/v1/payment_intents", 1);
    expect(await provider().charge({ idempotencyKey: key("5xx-once"), amount: "29.00", currency: "USD", paymentMethodId: pm, offSession: true })).toMatchObject({ status: "succeeded" });
  });

  it("a refused secret key is an unknown outcome (the school's configuration, never the member's decline)", async () => {
    const wrong = createStripeProvider({ secretKey: "sk_live_notAcceptedByTheEmulator" });
    await expect(wrong.charge({ idempotencyKey: key("auth"), amount: "1.00", currency: "USD", paymentMethodId: "pm_x", offSession: true })).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it("refunds in parts with idempotency keys: a repeated key is the same refund; more than what remains is refused", async () => {
    const charged = await provider().charge({ idempotencyKey: key("paid"), amount: "29.00", currency: "USD", paymentMethodId: await saved("pm_card_visa"), offSession: false });
    const pi = charged.providerPaymentId;
    const k = key("refund");
    const first = await provider().refund({ idempotencyKey: k, providerPaymentId: pi, amount: "10.50", currency: "USD" });
    expect(first).toMatchObject({ status: "succeeded", providerRefundId: expect.stringMatching(/^re_/) });
    expect(await provider().refund({ idempotencyKey: k, providerPaymentId: pi, amount: "10.50", currency: "USD" })).toEqual(first);
    expect(await provider().refund({ idempotencyKey: key("refund"), providerPaymentId: pi, amount: "18.51", currency: "USD" })).toMatchObject({ status: "failed" });
    expect(await provider().refund({ idempotencyKey: key("refund"), providerPaymentId: pi, amount: "18.50", currency: "USD" })).toMatchObject({ status: "succeeded" });
    expect(await provider().refund({ idempotencyKey: key("refund"), providerPaymentId: pi, amount: "0.01", currency: "USD" })).toMatchObject({ status: "failed", failureCode: "charge_already_refunded" });
  });

  it("a hosted Checkout Session in payment mode saves the card for later (off_session) and reports the PaymentIntent", async () => {
    const checkoutId = crypto.randomUUID();
    const started = await provider().createHostedCheckout({
      checkoutId, amount: "29.00", currency: "USD", description: "Monthly", customerEmail: "m@example.com", savePaymentMethod: true,
      successUrl: "http://demo.localhost/checkout/done?session={CHECKOUT_SESSION_ID}", cancelUrl: "http://demo.localhost/plans/monthly",
    });
    expect(started.providerSessionId).toMatch(/^cs_test_/);
    expect(started.url).toContain(started.providerSessionId);
    expect(await provider().getHostedCheckout({ providerSessionId: started.providerSessionId })).toEqual({ status: "open" });
    // A declined card leaves the session open, as on Stripe's page.
    await emulator.payCheckout(KEY, started.providerSessionId, "pm_card_chargeDeclined");
    expect(await provider().getHostedCheckout({ providerSessionId: started.providerSessionId })).toEqual({ status: "open" });
    await emulator.payCheckout(KEY, started.providerSessionId, "pm_card_visa");
    const done = await provider().getHostedCheckout({ providerSessionId: started.providerSessionId });
    expect(done).toMatchObject({ status: "complete", paymentMethodId: expect.stringMatching(/^pm_/), providerPaymentId: expect.stringMatching(/^pi_/) });
    const pi = emulator.paymentIntents(KEY).find((p) => p.id === (done as { providerPaymentId: string }).providerPaymentId)!;
    expect(pi).toMatchObject({ amount: 2900, setup_future_usage: "off_session", status: "succeeded" });
    // The saved card is charged later, off-session, through the same adapter.
    const later = await provider().charge({ idempotencyKey: key("after-checkout"), amount: "29.00", currency: "USD", paymentMethodId: (done as { paymentMethodId: string }).paymentMethodId, offSession: true });
    expect(later.status).toBe("succeeded");
    // The same checkout started again (a retried request) is the same Stripe session.
    expect((await provider().createHostedCheckout({
      checkoutId, amount: "29.00", currency: "USD", description: "Monthly", customerEmail: "m@example.com", savePaymentMethod: true,
      successUrl: "http://demo.localhost/checkout/done?session={CHECKOUT_SESSION_ID}", cancelUrl: "http://demo.localhost/plans/monthly",
    })).providerSessionId).toBe(started.providerSessionId);
  });

  it("a one-time purchase (a course, a download) is paid in payment mode and keeps no card for later", async () => {
    const started = await provider().createHostedCheckout({
      checkoutId: crypto.randomUUID(), amount: "49.00", currency: "USD", description: "Intro to SQL", customerEmail: "c@example.com", savePaymentMethod: false,
      successUrl: "http://demo.localhost/checkout/complete/x", cancelUrl: "http://demo.localhost/checkout/courses/intro-to-sql?canceled=1",
    });
    await emulator.payCheckout(KEY, started.providerSessionId, "pm_card_visa");
    const done = await provider().getHostedCheckout({ providerSessionId: started.providerSessionId });
    expect(done).toMatchObject({ status: "complete", providerPaymentId: expect.stringMatching(/^pi_/) });
    const pi = emulator.paymentIntents(KEY).find((p) => p.id === (done as { providerPaymentId: string }).providerPaymentId)!;
    expect(pi).toMatchObject({ amount: 4900, status: "succeeded" });
    expect(pi.setup_future_usage ?? null).toBeNull();
  });

  it("a trial's checkout (0.00) is a setup-mode session: the card is saved, nothing is charged", async () => {
    const before = emulator.paymentIntents(KEY).length;
    const started = await provider().createHostedCheckout({
      checkoutId: crypto.randomUUID(), amount: "0.00", currency: "USD", description: "Trial", customerEmail: null, savePaymentMethod: true, successUrl: "http://x.test/ok", cancelUrl: "http://x.test/no",
    });
    await emulator.payCheckout(KEY, started.providerSessionId, "pm_card_visa");
    expect(await provider().getHostedCheckout({ providerSessionId: started.providerSessionId })).toMatchObject({ status: "complete", providerPaymentId: null, paymentMethodId: expect.stringMatching(/^pm_/) });
    expect(emulator.paymentIntents(KEY)).toHaveLength(before);
  });

  it("an expired session reads expired", async () => {
    const started = await provider().createHostedCheckout({
      checkoutId: crypto.randomUUID(), amount: "5.00", currency: "EUR", description: "x", customerEmail: null, savePaymentMethod: false, successUrl: "http://x.test/ok", cancelUrl: "http://x.test/no",
    });
    emulator.expireCheckout(KEY, started.providerSessionId);
    expect(await provider().getHostedCheckout({ providerSessionId: started.providerSessionId })).toEqual({ status: "expired" });
  });

  it("amounts in the currency's minor unit (zero- and three-decimal currencies)", () => {
    expect([toMinorUnits("29.00", "USD"), toMinorUnits("29.5", "EUR"), toMinorUnits("500.00", "JPY"), toMinorUnits("1.25", "KWD")]).toEqual([2900, 2950, 500, 1250]);
    expect([fromMinorUnits(2900, "usd"), fromMinorUnits(500, "jpy"), fromMinorUnits(1250, "kwd")]).toEqual(["29.00", "500.00", "1.25"]);
  });
});
