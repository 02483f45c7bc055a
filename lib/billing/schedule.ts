// Billing's clock rules (docs/decisions.md, "Billing"), in one place.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Delays of the retries of a failed renewal, each after the previous failure: modelled on Stripe's
 * classic retry schedule (3, 5 and 7 days: three retries over about two weeks).
 */
export const RETRY_DELAYS_MS: readonly number[] = [3 * DAY_MS, 5 * DAY_MS, 7 * DAY_MS];

/** An incomplete subscription whose first charge is not paid within this time ends (Stripe's 23 hours). */
export const INCOMPLETE_EXPIRY_MS = 23 * HOUR_MS;

/** A renewal worker's claim on a subscription lasts this long; a worker that dies loses it then. */
export const CHARGE_LEASE_MS = 5 * 60_000;

/**
 * Subscriptions a renewal run claims and steps at once (collect-subscription.ts): its statements
 * are per batch, so larger batches cost less per item; the lease (above) must outlast a batch.
 */
export const RENEWAL_BATCH = 200;

/** After a charge with an unknown outcome, the payment is reconciled no sooner than this. */
export const RECONCILE_AFTER_MS = 60_000;

/** When the retry after failed attempt `attempt` (1 = the period's first try) is due; null: no retry left. */
export function retryAt(failedAt: Date, attempt: number): Date | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
}
