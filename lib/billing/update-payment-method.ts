import { isUuid } from "../core/ids";
import type { AuditActor } from "../db/audit";
import { db } from "../db/client";
import type { Payment } from "../db/generated/client";
import { recordEvent } from "../db/outbox";
import { failure, success, type Payload } from "../db/write-transaction";
import { changeSubscription, SUBSCRIPTION_NOT_FOUND } from "../membership/change-subscription";
import { PAYMENT_IN_PROGRESS } from "../membership/pause-subscription";
import { presentSubscription } from "../membership/presenter";
import { subscriptionInclude, type SubscriptionRecord } from "../membership/record-types";
import { collectSubscription, isRetryableNow, type CollectOutcome } from "./collect-subscription";
import { ProviderUnavailableError } from "./provider";
import { CHARGE_LEASE_MS } from "./schedule";
import { providerFor } from "./provider-for";

export interface UpdatePaymentMethodInput {
  /** The subscription's id. */
  id: string;
  /** A test card number (test mode) or the provider's payment method reference. */
  paymentMethod: string;
}

export interface PaymentMethodUpdate {
  subscription: SubscriptionRecord;
  /** The charge made at once (a past_due subscription's missed period); null when none was made. */
  payment: Payment | null;
  /** What that charge did: "succeeded", "failed", "unknown" (the provider did not answer; reconciled later), or "none". */
  charge: CollectOutcome | "none";
}

export const NOT_CHARGED_AUTOMATICALLY = "Only subscriptions with collectionMethod charge_automatically have a payment method";
export const PAYMENT_METHOD_NOT_UPDATABLE = "Only active, trialing or past_due subscriptions can change their payment method";
export const PAYMENT_METHOD_MISSING = "paymentMethod is required (at most 200 characters)";
export const PROVIDER_UNAVAILABLE = "The payment provider did not answer; nothing was changed, try again";

const MAX_PAYMENT_METHOD_LENGTH = 200;
const UPDATABLE_STATES: readonly string[] = ["active", "trialing", "past_due"];

/** Why this subscription's payment method cannot change, or null. */
function refusal(s: SubscriptionRecord): string | null {
  if (s.collectionMethod !== "charge_automatically") return NOT_CHARGED_AUTOMATICALLY;
  if (!UPDATABLE_STATES.includes(s.state)) return PAYMENT_METHOD_NOT_UPDATABLE;
  return null;
}

/**
 * Saves a new payment method on a subscription the provider charges (Stripe's
 * default_payment_method). Rules, first failure wins, nothing written: not found → not
 * charge_automatically → not active, trialing or past_due → paymentMethod missing or too long → the
 * provider refuses the card (its message) → a charge of it in flight.
 * While past_due (and neither canceling nor paused) the missed period is charged with it at once,
 * through the renewal's own exactly-once step (collect-subscription.ts: the claim, a Payment with
 * the period's next attempt number and its idempotency key, reconciliation of an unknown outcome),
 * on-session: paid → active (payment.succeeded, subscription.renewed, in the transaction that
 * records it); refused → still past_due, the payment says why, and the next scheduled retry is
 * unchanged. The saved method writes subscription.updated in its own transaction, before the charge.
 */
export async function updatePaymentMethod(options: {
  schoolId: string;
  input: UpdatePaymentMethodInput;
  now: Date;
  dryRun?: boolean;
  /** Who asks: the audit log's actor of the saved method and of the charge it makes at once. */
  actor: AuditActor;
}): Promise<Payload<PaymentMethodUpdate>> {
  const { schoolId, input, now, dryRun, actor } = options;
  if (typeof input.id !== "string" || !isUuid(input.id)) return failure(SUBSCRIPTION_NOT_FOUND);
  const before = await db().subscription.findFirst({ where: { id: input.id, schoolId }, include: subscriptionInclude });
  if (!before) return failure(SUBSCRIPTION_NOT_FOUND);
  const refused = refusal(before);
  if (refused) return failure(refused);
  const raw = typeof input.paymentMethod === "string" ? input.paymentMethod.trim() : "";
  if (!raw || raw.length > MAX_PAYMENT_METHOD_LENGTH) return failure(PAYMENT_METHOD_MISSING);

  // The provider is asked outside any transaction; a card it refuses changes nothing.
  let paymentMethodId: string;
  try {
    const attached = await (await providerFor({ schoolId })).attachPaymentMethod({ paymentMethod: raw });
    if (!attached.ok) return failure(attached.failureMessage);
    paymentMethodId = attached.paymentMethodId;
  } catch (err) {
    if (err instanceof ProviderUnavailableError) return failure(PROVIDER_UNAVAILABLE);
    throw err;
  }

  const lease = new Date(now.getTime() + CHARGE_LEASE_MS);
  let retry = false;
  const saved = await changeSubscription({ schoolId, id: before.id, now, dryRun, actor, action: "subscription.update_payment_method" }, async (tx, sub) => {
    const refusedNow = refusal(sub);
    if (refusedNow) return failure<SubscriptionRecord>(refusedNow);
    retry = isRetryableNow(sub);
    // A renewal worker holds it (a charge in flight): its outcome comes first.
    if (retry && sub.chargeLockedUntil && sub.chargeLockedUntil > now) return failure<SubscriptionRecord>(PAYMENT_IN_PROGRESS);
    const updated = await tx.subscription.update({
      where: { id: sub.id },
      // The claim is taken with the method, so no renewal run slips in before the charge below.
      data: { paymentMethodId, updatedAt: now, ...(retry && !dryRun ? { chargeLockedUntil: lease } : {}) },
      include: subscriptionInclude,
    });
    await recordEvent(tx, { event: { schoolId, type: "subscription.updated", subjectId: updated.id, data: presentSubscription(updated) }, now });
    return success(updated);
  });
  if (!saved.record) return failure(saved.errors[0] ?? SUBSCRIPTION_NOT_FOUND);
  if (!retry || dryRun) return success({ subscription: saved.record, payment: null, charge: "none" });

  const charge = await collectSubscription({ subscriptionId: before.id, lease, now, onSession: true, actor });
  const subscription = await db().subscription.findUniqueOrThrow({ where: { id: before.id }, include: subscriptionInclude });
  const payment =
    charge === "skipped" ? null : await db().payment.findFirst({ where: { subscriptionId: before.id, updatedAt: now }, orderBy: [{ createdAt: "desc" }, { attempt: "desc" }] });
  return success({ subscription, payment, charge });
}
