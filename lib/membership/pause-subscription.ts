import { changeSubscription } from "./change-subscription";
import type { AuditActor } from "../db/audit";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { failure, success, type Payload } from "../db/write-transaction";
import { recordEvent } from "../db/outbox";
import { presentSubscription } from "./presenter";
import { isCanceling } from "./states";

export interface PauseSubscriptionInput {
  id: string;
}

export const ALREADY_PAUSED = "Subscription is already paused";
export const NOT_PAUSABLE = "Only active or trialing subscriptions can be paused";
export const LIFETIME_NOT_PAUSABLE = "Lifetime subscriptions cannot be paused";
export const CANCELING_NOT_PAUSABLE = "Cannot pause a subscription that is pending cancellation";
export const PAYMENT_IN_PROGRESS = "A payment of this subscription is in progress; retry shortly";

/**
 * Pauses a subscription (Stripe's pause): from now no charge, no access and no expiry, until
 * resumeSubscription, which extends the period by the time paused. The state is kept (the spec has
 * no paused state); pausedAt and isPaused say it (docs/decisions.md, "Billing", "Pause").
 * Rules, first failure wins: not found → already paused → lifetime → not active or trialing (ended,
 * past_due, incomplete) → pending cancellation → a charge in flight. Writes subscription.paused in
 * the same transaction.
 */
export async function pauseSubscription(options: { schoolId: string; input: PauseSubscriptionInput; now: Date; dryRun?: boolean; actor: AuditActor }): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, input, now, dryRun, actor } = options;
  return changeSubscription({ schoolId, id: input.id, now, dryRun, actor, action: "subscription.pause" }, async (tx, sub) => {
    if (sub.pausedAt) return failure<SubscriptionRecord>(ALREADY_PAUSED);
    if (sub.plan.planType === "lifetime") return failure<SubscriptionRecord>(LIFETIME_NOT_PAUSABLE);
    if (sub.state !== "active" && sub.state !== "trialing") return failure<SubscriptionRecord>(NOT_PAUSABLE);
    if (isCanceling(sub)) return failure<SubscriptionRecord>(CANCELING_NOT_PAUSABLE);
    // A renewal worker's pending charge settles first: its outcome would otherwise move a paused period.
    if (await tx.payment.count({ where: { subscriptionId: sub.id, state: "pending" } })) return failure<SubscriptionRecord>(PAYMENT_IN_PROGRESS);
    const updated = await tx.subscription.update({
      where: { id: sub.id },
      data: { pausedAt: now, nextChargeDate: null, updatedAt: now },
      include: subscriptionInclude,
    });
    await recordEvent(tx, { event: { schoolId, type: "subscription.paused", subjectId: updated.id, data: presentSubscription(updated) }, now });
    return success(updated);
  });
}
