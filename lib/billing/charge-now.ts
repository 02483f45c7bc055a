import { db } from "../db/client";
import { collectSubscription, type CollectOutcome } from "./collect-subscription";
import { CHARGE_LEASE_MS } from "./schedule";

/**
 * Takes one subscription's due billing step at once (the first charge at purchase), through the same
 * claim and steps as the renewal run: if a worker holds it, nothing happens here and the worker's step
 * stands.
 */
export async function chargeNow(options: { subscriptionId: string; now: Date }): Promise<CollectOutcome> {
  const { subscriptionId, now } = options;
  const lease = new Date(now.getTime() + CHARGE_LEASE_MS);
  const { count } = await db().subscription.updateMany({
    where: { id: subscriptionId, OR: [{ chargeLockedUntil: null }, { chargeLockedUntil: { lte: now } }] },
    data: { chargeLockedUntil: lease },
  });
  if (count === 0) return "skipped";
  return collectSubscription({ subscriptionId, lease, now });
}
