import { changeSubscription } from "./change-subscription";
import type { AuditActor } from "../db/audit";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { failure, success, type Payload } from "../db/write-transaction";
import { recordEvent } from "../db/outbox";
import { presentSubscription } from "./presenter";
import { isCanceling, isLive } from "./states";

export interface UndoCancellationInput {
  id: string;
}

export const NOT_CANCELING = "Subscription is not pending cancellation";

/**
 * Takes back a cancellation scheduled for the period end, before it takes effect: the subscription
 * continues as if it had never been cancelled (a recurring plan charges again at the period end).
 * Rules, first failure wins: not found → not pending cancellation (never scheduled, or already
 * ended: time rules run first, so a cancellation whose date passed is final). Writes
 * subscription.updated (isCanceling false again) in the same transaction.
 */
export async function undoCancellation(options: { schoolId: string; input: UndoCancellationInput; now: Date; dryRun?: boolean; actor: AuditActor }): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, input, now, dryRun, actor } = options;
  return changeSubscription({ schoolId, id: input.id, now, dryRun, actor, action: "subscription.undo_cancellation" }, async (tx, sub) => {
    if (!isCanceling(sub) || !isLive(sub.state)) return failure<SubscriptionRecord>(NOT_CANCELING);
    const nextChargeDate = sub.plan.planType === "recurring" ? sub.currentPeriodEnd : null;
    const updated = await tx.subscription.update({
      where: { id: sub.id },
      data: { cancelAt: null, cancelType: null, cancelReason: null, nextChargeDate, updatedAt: now },
      include: subscriptionInclude,
    });
    await recordEvent(tx, { event: { schoolId, type: "subscription.updated", subjectId: updated.id, data: presentSubscription(updated) }, now });
    return success(updated);
  });
}
