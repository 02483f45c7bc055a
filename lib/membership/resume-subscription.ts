import { changeSubscription } from "./change-subscription";
import type { AuditActor } from "../db/audit";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { failure, success, type Payload } from "../db/write-transaction";
import { recordEvent } from "../db/outbox";
import { presentSubscription } from "./presenter";

export interface ResumeSubscriptionInput {
  id: string;
}

export const NOT_PAUSED = "Subscription is not paused";

const later = (at: Date | null, ms: number) => (at ? new Date(at.getTime() + ms) : null);

/**
 * Resumes a paused subscription: access again, and the current period end (with a fixed_date or
 * specific_length end) moves forward by the time paused, so the member loses none of what they paid
 * for; a recurring plan's next charge is the moved period end. Rules: not found → not paused.
 * Writes subscription.resumed in the same transaction.
 */
export async function resumeSubscription(options: { schoolId: string; input: ResumeSubscriptionInput; now: Date; dryRun?: boolean; actor: AuditActor }): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, input, now, dryRun, actor } = options;
  return changeSubscription({ schoolId, id: input.id, now, dryRun, actor, action: "subscription.resume" }, async (tx, sub) => {
    if (!sub.pausedAt) return failure<SubscriptionRecord>(NOT_PAUSED);
    const paused = Math.max(0, now.getTime() - sub.pausedAt.getTime());
    const currentPeriodEnd = later(sub.currentPeriodEnd, paused);
    const updated = await tx.subscription.update({
      where: { id: sub.id },
      data: {
        pausedAt: null,
        currentPeriodEnd,
        endAt: later(sub.endAt, paused),
        nextChargeDate: sub.plan.planType === "recurring" ? currentPeriodEnd : null,
        updatedAt: now,
      },
      include: subscriptionInclude,
    });
    await recordEvent(tx, { event: { schoolId, type: "subscription.resumed", subjectId: updated.id, data: presentSubscription(updated) }, now });
    return success(updated);
  });
}
