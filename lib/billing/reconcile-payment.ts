import { db } from "../db/client";
import { collectSubscription, type CollectOutcome } from "./collect-subscription";
import { CHARGE_LEASE_MS } from "./schedule";

/**
 * Finishes a pending payment now, from the provider's record of its charge (a provider's webhook
 * said the charge moved): the subscription is claimed as a renewal run claims it, and its pending
 * payment is reconciled (findCharge by the payment's idempotency key, then the outcome recorded with
 * its transition and events). Nothing is charged that was not already sent. A payment no longer
 * pending, or another school's, is "skipped".
 */
export async function reconcilePayment(options: { schoolId: string; idempotencyKey: string; now: Date }): Promise<CollectOutcome> {
  const { schoolId, idempotencyKey, now } = options;
  const payment = await db().payment.findFirst({ where: { schoolId, idempotencyKey, state: "pending" }, select: { subscriptionId: true } });
  // A one-time purchase is recorded only once paid (completeCheckout): never pending, nothing to reconcile.
  if (!payment?.subscriptionId) return "skipped";
  // The lease is taken even from a run that holds it (a run waiting out its reconcile delay, or one
  // still asking the provider): the provider says the outcome is known, and recording it is guarded
  // by the payment's pending state, so whichever records second writes nothing.
  const lease = new Date(now.getTime() + CHARGE_LEASE_MS);
  const subscriptionId = payment.subscriptionId;
  await db().subscription.update({ where: { id: subscriptionId }, data: { chargeLockedUntil: lease } });
  return collectSubscription({ subscriptionId, lease, now, reconcileOnly: true });
}
