// POST /api/webhooks/stripe: a school's Stripe events (docs/decisions.md, "Billing", "Stripe").
// The school is the one the host names; the event must carry a valid Stripe-Signature made with
// that school's signing secret, within 5 minutes (the SDK's constructEvent and its tolerance). An
// event already applied (same id, same school) is answered without being applied again. The event's
// payload is never trusted: the object it names is read again from Stripe with the school's key, and
// its current state is applied through billing's own verbs, so events can come in any order, twice,
// or late, and an object of another Stripe account is not found at all.
import type Stripe from "stripe";
import { now } from "../clock";
import { db } from "../db/client";
import { BodyTooLargeError, readBodyText } from "../http/body";
import { requestContext } from "../tenancy/request-context";
import { completeCheckout } from "./complete-checkout";
import { ProviderUnavailableError } from "./provider";
import { reconcilePayment } from "./reconcile-payment";
import { recordProviderRefunds } from "./record-provider-refunds";
import { fromMinorUnits, isStripeId, isUnavailable, stripeClient } from "./stripe-client";
import { IDEMPOTENCY_METADATA } from "./stripe-provider";
import { stripeAccountOf } from "./stripe-settings";

/** Stripe's events are far below this; a larger body is not one of them. */
const MAX_BODY_BYTES = 512 * 1024;
/** Stripe's default tolerance: an event signed longer ago than this is a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const json = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

export const NOT_STRIPE_SCHOOL = "This school does not take payments through Stripe";
export const BAD_SIGNATURE = "The Stripe-Signature header does not match this school's webhook signing secret, or the event is too old";

export const NOT_AN_EVENT = "The body is not a Stripe event";

export type AppliedOutcome = "applied" | "ignored";

/** The handler of POST /api/webhooks/stripe (app/_routes/table.ts). */
export async function handleStripeWebhook(request: Request): Promise<Response> {
  const school = await requestContext(request).school();
  const account = school ? await stripeAccountOf({ schoolId: school.id }) : null;
  if (!school || !account) return json(404, { error: NOT_STRIPE_SCHOOL });
  let payload: string;
  try {
    payload = await readBodyText(request, MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return json(413, { error: "The event is too large" });
    return json(400, { error: BAD_SIGNATURE });
  }
  const stripe = stripeClient(account.secretKey);
  const at = now();
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, request.headers.get("stripe-signature") ?? "", account.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, at.getTime());
  } catch {
    return json(400, { error: BAD_SIGNATURE });
  }
  // Signed by Stripe's secret holder, but still only data: an event must look like one.
  const shape = event as { id?: unknown; type?: unknown; data?: { object?: unknown } | null };
  if (typeof shape.id !== "string" || !/^[\w-]{1,255}$/.test(shape.id) || typeof shape.type !== "string" || shape.type.length > 255 || typeof shape.data?.object !== "object" || shape.data.object === null) {
    return json(400, { error: NOT_AN_EVENT });
  }
  const seen = await db().stripeEvent.findUnique({ where: { schoolId_eventId: { schoolId: school.id, eventId: event.id } } });
  if (seen) return json(200, { received: true, duplicate: true });
  let outcome: AppliedOutcome;
  try {
    outcome = await applyStripeEvent({ schoolId: school.id, stripe, event, now: at });
  } catch (err) {
    // Stripe did not answer the re-read: 503, and Stripe delivers the event again later.
    if (err instanceof ProviderUnavailableError || isUnavailable(err)) return json(503, { error: "Stripe could not be reached; the event will be applied when Stripe sends it again" });
    throw err;
  }
  await db().stripeEvent.createMany({ data: [{ schoolId: school.id, eventId: event.id, type: event.type, createdAt: at }], skipDuplicates: true });
  return json(200, { received: true, outcome });
}

/** An object this Stripe account does not have (another account's id, a forged one). */
const isMissing = (err: unknown) => (err as { code?: string } | null)?.code === "resource_missing";

const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === "string" ? value : value.id);

/**
 * Applies what Stripe says now about the event's object: a PaymentIntent's outcome finishes our
 * pending payment of it (reconcilePayment: the same code a renewal run's reconciliation runs), a
 * refunded charge's dashboard refunds are recorded (recordProviderRefunds), a completed Checkout
 * Session completes our checkout (completeCheckout).
 */
export async function applyStripeEvent(options: { schoolId: string; stripe: Stripe; event: Stripe.Event; now: Date }): Promise<AppliedOutcome> {
  const { schoolId, stripe, event, now: at } = options;
  const objectId = (event.data.object as { id?: unknown }).id;
  // An id not of Stripe's shape names no object and is never sent to Stripe: an empty one would read
  // `/v1/payment_intents/` (Stripe's "Unrecognized request URL", not `resource_missing`, so a 500).
  if (!isStripeId(objectId)) return "ignored";
  try {
    switch (event.type) {
      case "payment_intent.succeeded":
      case "payment_intent.payment_failed":
      case "payment_intent.canceled": {
        const pi = await stripe.paymentIntents.retrieve(objectId);
        const key = pi.metadata?.[IDEMPOTENCY_METADATA];
        if (!key) return "ignored";
        return (await reconcilePayment({ schoolId, idempotencyKey: key, now: at })) === "skipped" ? "ignored" : "applied";
      }
      case "charge.refunded":
      case "charge.refund.updated": {
        const chargeId = event.type === "charge.refunded" ? objectId : idOf((event.data.object as { charge?: string | { id: string } }).charge);
        if (!isStripeId(chargeId)) return "ignored";
        const charge = await stripe.charges.retrieve(chargeId);
        const pi = idOf(charge.payment_intent);
        if (!pi) return "ignored";
        const refunds = await stripe.refunds.list({ payment_intent: pi, limit: 100 });
        const made = refunds.data
          .filter((r) => r.status === "succeeded" || r.status === "pending")
          .map((r) => ({ providerRefundId: r.id, amount: fromMinorUnits(r.amount, r.currency ?? charge.currency), idempotencyKey: r.metadata?.[IDEMPOTENCY_METADATA] ?? null }));
        return (await recordProviderRefunds({ schoolId, providerPaymentId: pi, refunds: made, now: at })) > 0 ? "applied" : "ignored";
      }
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded": {
        // Our CheckoutSession is completed as the member's return completes it: its outcome read
        // from Stripe again (getHostedCheckout), once, whoever comes first.
        const session = await stripe.checkout.sessions.retrieve(objectId);
        if (!session.client_reference_id) return "ignored";
        const done = await completeCheckout({ schoolId, checkoutId: session.client_reference_id, now: at });
        return done.errors.length ? "ignored" : "applied";
      }
      default:
        return "ignored";
    }
  } catch (err) {
    if (isMissing(err)) return "ignored";
    throw err;
  }
}
