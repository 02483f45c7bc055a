import { fromUnixSeconds, toUnixSeconds } from "../clock";
import { changeSubscription } from "./change-subscription";
import type { AuditActor } from "../db/audit";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { failure, success, type Payload } from "../db/write-transaction";
import { recordEvent } from "../db/outbox";
import { presentSubscription } from "./presenter";
import { settleDueSubscriptions } from "./settle";
import { isLive } from "./states";
import { addInterval } from "./time";

export interface UpdateSubscriptionInput {
  id: string;
  currentPeriodEnd: number;
}

export const UPDATE_LIFETIME = "Cannot update period for lifetime subscriptions";
export const UPDATE_CANCELED = "Cannot update an already cancelled subscription";
export const UPDATE_PENDING_CANCELLATION =
  "Cannot update a subscription that is pending cancellation. Use cancelSubscription mutation instead.";
export const TOO_FAR_FUTURE = "Timestamp cannot be more than 10 years in the future";
export const TOO_FAR_PAST = "Timestamp cannot be more than 1 year in the past";
export const BEFORE_PERIOD_START = "Cannot set end date earlier than current period start";

/**
 * Moves the end of the current period. Rules, checked in this order (first failure wins):
 * not found → lifetime → canceled → pending cancellation → more than 10 years ahead →
 * more than 1 year back → before the current period start. Recurring plans' nextChargeDate
 * follows the new end; fixed_date and specific_length plans' endAt does.
 */
export async function updateSubscription(options: {
  schoolId: string;
  input: UpdateSubscriptionInput;
  now: Date;
  /** Check and compute everything, write nothing (MCP's dry_run). */
  dryRun?: boolean;
  /** Who asks: written to the audit log with the change (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, input, now, dryRun, actor } = options;
  return changeSubscription({ schoolId, id: input.id, now, dryRun, actor, action: "subscription.update" }, async (tx, sub) => {
    let end = fromUnixSeconds(input.currentPeriodEnd);

    if (sub.plan.planType === "lifetime") return failure<SubscriptionRecord>(UPDATE_LIFETIME);
    if (sub.state === "canceled") return failure<SubscriptionRecord>(UPDATE_CANCELED);
    if (sub.cancelAt) return failure<SubscriptionRecord>(UPDATE_PENDING_CANCELLATION);
    if (end > addInterval(now, "year", 10)) return failure<SubscriptionRecord>(TOO_FAR_FUTURE);
    if (end < addInterval(now, "year", -1)) return failure<SubscriptionRecord>(TOO_FAR_PAST);
    // Compared at the precision the API exposes (seconds): the start it returned is never "earlier".
    if (sub.currentPeriodStart && input.currentPeriodEnd < toUnixSeconds(sub.currentPeriodStart)!) return failure<SubscriptionRecord>(BEFORE_PERIOD_START);
    // Equal in seconds but before the stored start's milliseconds: end at the start itself, which
    // the API shows as the same second (and the period-order CHECK constraint accepts).
    if (sub.currentPeriodStart && end < sub.currentPeriodStart) end = sub.currentPeriodStart;

    const live = isLive(sub.state);
    const data =
      sub.plan.planType === "recurring"
        ? { currentPeriodEnd: end, nextChargeDate: live ? end : null }
        : { currentPeriodEnd: end, endAt: end };
    const updated = await tx.subscription.update({
      where: { id: sub.id },
      data: { ...data, updatedAt: now },
      include: subscriptionInclude,
    });
    await recordEvent(tx, { event: { schoolId, type: "subscription.updated", subjectId: updated.id, data: presentSubscription(updated) }, now });
    // Shortening a fixed-length subscription into the past ends it now, not at the next read (and
    // reports subscription.expired after the subscription.updated above). Read again only then:
    // settling other subscriptions changes nothing this record includes.
    const settled = await settleDueSubscriptions({ tx, schoolId, now });
    if (!settled.expiredIds.includes(updated.id) && !settled.canceledIds.includes(updated.id)) return success(updated);
    return success(await tx.subscription.findUniqueOrThrow({ where: { id: updated.id }, include: subscriptionInclude }));
  });
}
