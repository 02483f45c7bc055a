// The `stripe` payment provider: a school's own Stripe account through the official SDK
// (docs/decisions.md, "Billing", "Stripe"). A saved payment method is a PaymentMethod attached to a
// Customer; a charge is a PaymentIntent confirmed at once (off-session for renewals and retries)
// with our idempotency key as Stripe's Idempotency-Key and in its metadata, so the charge is found
// again by search and a repeated request is the same PaymentIntent; a refund is a Refund of it.
import type Stripe from "stripe";
import {
  ProviderUnavailableError,
  type AttachResult,
  type ChargeRequest,
  type ChargeResult,
  type HostedCheckoutRequest,
  type HostedCheckoutStatus,
  type PaymentProviderPort,
  type RefundRequest,
  type RefundResult,
} from "./provider";
import { isStripeId, stripeClient, toMinorUnits, unavailableOr } from "./stripe-client";

/** The metadata field holding our idempotency key on PaymentIntents and Refunds (findCharge searches it). */
export const IDEMPOTENCY_METADATA = "schoolhouse_idempotency_key";
/** The metadata field holding our CheckoutSession id on Stripe's Checkout Session and its PaymentIntent. */
export const CHECKOUT_METADATA = "schoolhouse_checkout_id";

const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === "string" ? value : value.id);

const AUTHENTICATION_REQUIRED = { code: "authentication_required", message: "Your bank asks you to confirm this payment (3D Secure); it cannot be taken without you." };

/** A PaymentIntent's state as a charge outcome; "still processing" is an unknown outcome. */
export function chargeResultOf(pi: Stripe.PaymentIntent): ChargeResult {
  if (pi.status === "succeeded") return { status: "succeeded", providerPaymentId: pi.id };
  if (pi.status === "processing") throw new ProviderUnavailableError("Stripe is still processing the payment");
  if (pi.status === "requires_action") return { status: "failed", providerPaymentId: pi.id, failureCode: AUTHENTICATION_REQUIRED.code, failureMessage: AUTHENTICATION_REQUIRED.message };
  const error = pi.last_payment_error;
  return {
    status: "failed",
    providerPaymentId: pi.id,
    failureCode: error?.decline_code ?? error?.code ?? (pi.status === "canceled" ? "canceled" : "card_declined"),
    failureMessage: error?.message ?? "Your card was declined.",
  };
}

/** Stripe's answer (its code) for a payment method it does not have, saying why this one cannot be. */
const NO_SUCH_PAYMENT_METHOD = { failureCode: "resource_missing", failureMessage: "No such PaymentMethod: a Stripe id has only letters, digits and underscores" } as const;

async function customerOfMethod(stripe: Stripe, paymentMethodId: string): Promise<string | null> {
  const pm = await stripe.paymentMethods.retrieve(paymentMethodId);
  return idOf(pm.customer);
}

/** The adapter for one school's Stripe account. */
export function createStripeProvider(options: { secretKey: string }): PaymentProviderPort {
  const stripe = stripeClient(options.secretKey);

  return {
    name: "stripe",

    async attachPaymentMethod({ paymentMethod }): Promise<AttachResult> {
      // A reference typed by staff (Admin API, MCP) that cannot be a Stripe id is answered as Stripe
      // answers an unknown one, without a request that would read another URL.
      if (!isStripeId(paymentMethod)) return { ok: false, ...NO_SUCH_PAYMENT_METHOD };
      try {
        // A method saved by a Checkout Session already has its Customer; a new one (a pm_ id from
        // Stripe.js, or Stripe's pm_card_* test tokens) gets a Customer of its own. Attaching a
        // test token makes a new PaymentMethod, whose id is the one kept.
        if (!paymentMethod.startsWith("pm_card_")) {
          const existing = await stripe.paymentMethods.retrieve(paymentMethod);
          if (existing.customer) return { ok: true, paymentMethodId: existing.id };
        }
        const customer = await stripe.customers.create({ metadata: { source: "schoolhouse" } });
        const attached = await stripe.paymentMethods.attach(paymentMethod, { customer: customer.id });
        return { ok: true, paymentMethodId: attached.id };
      } catch (err) {
        const e = unavailableOr(err);
        return { ok: false, failureCode: e.decline_code ?? e.code ?? "payment_method_refused", failureMessage: e.message };
      }
    },

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      if (!isStripeId(request.paymentMethodId)) return { status: "failed", providerPaymentId: "", ...NO_SUCH_PAYMENT_METHOD };
      try {
        const customer = await customerOfMethod(stripe, request.paymentMethodId);
        const pi = await stripe.paymentIntents.create(
          {
            amount: toMinorUnits(request.amount, request.currency),
            currency: request.currency.toLowerCase(),
            payment_method: request.paymentMethodId,
            ...(customer ? { customer } : {}),
            confirm: true,
            ...(request.offSession ? { off_session: true } : {}),
            // Cards and other methods confirmed without sending the member elsewhere.
            automatic_payment_methods: { enabled: true, allow_redirects: "never" },
            metadata: { [IDEMPOTENCY_METADATA]: request.idempotencyKey },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return chargeResultOf(pi);
      } catch (err) {
        if (err instanceof ProviderUnavailableError) throw err;
        const e = unavailableOr(err);
        // A decline (402) carries the PaymentIntent it failed; a refused request (a detached method) none.
        if (e.payment_intent) return { ...chargeResultOf(e.payment_intent), ...(e.payment_intent.status === "succeeded" ? {} : declineOf(e)) } as ChargeResult;
        return { status: "failed", providerPaymentId: "", ...declineOf(e) };
      }
    },

    async findCharge({ idempotencyKey }): Promise<ChargeResult | null> {
      try {
        // Search sees a PaymentIntent within about a minute (Stripe's documented freshness), and
        // reconciliation asks only from a minute after the charge; when search has none, billing
        // sends the charge again with the same Idempotency-Key, which Stripe answers from the first.
        const found = await stripe.paymentIntents.search({ query: `metadata['${IDEMPOTENCY_METADATA}']:'${idempotencyKey.replace(/'/g, "\\'")}'`, limit: 1 });
        const pi = found.data[0];
        return pi ? chargeResultOf(pi) : null;
      } catch (err) {
        if (err instanceof ProviderUnavailableError) throw err;
        throw unavailableOr(err);
      }
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.providerPaymentId,
            amount: toMinorUnits(request.amount, request.currency),
            metadata: { [IDEMPOTENCY_METADATA]: request.idempotencyKey },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (refund.status === "failed" || refund.status === "canceled") {
          return { status: "failed", failureCode: refund.failure_reason ?? "refund_failed", failureMessage: "Stripe could not make the refund." };
        }
        // pending and requires_action refunds are made by Stripe later; they are recorded as made.
        return { status: "succeeded", providerRefundId: refund.id };
      } catch (err) {
        const e = unavailableOr(err);
        return { status: "failed", failureCode: e.code ?? "refund_refused", failureMessage: e.message };
      }
    },

    async createHostedCheckout(request: HostedCheckoutRequest): Promise<{ url: string; providerSessionId: string }> {
      try {
        const amount = toMinorUnits(request.amount, request.currency);
        const currency = request.currency.toLowerCase();
        const metadata = { [CHECKOUT_METADATA]: request.checkoutId };
        // A Customer first, so the saved method belongs to one in payment and setup mode alike.
        const customer = await stripe.customers.create(
          { ...(request.customerEmail ? { email: request.customerEmail } : {}), metadata },
          { idempotencyKey: `checkout_customer_${request.checkoutId}` },
        );
        const common = { client_reference_id: request.checkoutId, customer: customer.id, success_url: request.successUrl, cancel_url: request.cancelUrl, metadata };
        const session = await stripe.checkout.sessions.create(
          amount > 0
            ? {
                ...common,
                mode: "payment",
                line_items: [{ quantity: 1, price_data: { currency, unit_amount: amount, product_data: { name: request.description } } }],
                // Saved for renewals only when asked (a plan); a one-time purchase keeps no card.
                payment_intent_data: { ...(request.savePaymentMethod ? { setup_future_usage: "off_session" as const } : {}), description: request.description, metadata },
              }
            : { ...common, mode: "setup", currency, setup_intent_data: { description: request.description, metadata } },
          { idempotencyKey: `checkout_${request.checkoutId}` },
        );
        if (!session.url) throw new ProviderUnavailableError("Stripe returned a Checkout Session without a URL");
        return { url: session.url, providerSessionId: session.id };
      } catch (err) {
        if (err instanceof ProviderUnavailableError) throw err;
        throw unavailableOr(err);
      }
    },

    async getHostedCheckout({ providerSessionId }): Promise<HostedCheckoutStatus> {
      try {
        const session = await stripe.checkout.sessions.retrieve(providerSessionId, { expand: ["payment_intent", "setup_intent"] });
        if (session.status === "expired") return { status: "expired" };
        if (session.status !== "complete") return { status: "open" };
        if (session.mode === "setup") {
          const setup = session.setup_intent as Stripe.SetupIntent | null;
          const paymentMethodId = idOf(setup?.payment_method);
          return setup?.status === "succeeded" && paymentMethodId ? { status: "complete", paymentMethodId, providerPaymentId: null } : { status: "open" };
        }
        const pi = session.payment_intent as Stripe.PaymentIntent | null;
        const paymentMethodId = idOf(pi?.payment_method);
        // Complete but not yet paid (a delayed method): not complete for us until it is.
        if (session.payment_status !== "paid" || !pi || !paymentMethodId) return { status: "open" };
        return { status: "complete", paymentMethodId, providerPaymentId: pi.id };
      } catch (err) {
        throw unavailableOr(err);
      }
    },
  };
}

function declineOf(e: Stripe.errors.StripeError): { failureCode: string; failureMessage: string } {
  return { failureCode: e.decline_code ?? e.code ?? "card_declined", failureMessage: e.message };
}
