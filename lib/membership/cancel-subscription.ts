import { fromUnixSeconds, toUnixSeconds } from "../clock";
import { changeSubscription } from "./change-subscription";
import type { AuditActor } from "../db/audit";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { failure, success, type Payload } from "../db/write-transaction";
import { recordEvent } from "../db/outbox";
import { presentSubscription } from "./presenter";
import { isCancellable } from "./states";
import { enqueueBillingMails } from "../mail/billing-mails";

export interface CancelSubscriptionInput {
  id: string;
  cancelAtPeriodEnd?: boolean | null;
  customEndedAt?: number | null;
}

export const ALREADY_CANCELLED = "Subscription already cancelled";
export const NOT_CANCELLABLE = "Subscription is not cancellable";
export const CUSTOM_END_BEFORE_START = "customEndedAt cannot be earlier than the subscription start";

/**
 * Cancels a subscription. In order: not found → already cancelled → not cancellable (lifetime,
 * or already ended by expiry) → pending cancellation: cancelled now whatever the arguments →
 * customEndedAt in the future: scheduled for then; customEndedAt now or past: cancelled now with
 * endAt = customEndedAt → cancelAtPeriodEnd true (default): scheduled for the period end →
 * cancelAtPeriodEnd false: cancelled now.
 */
export async function cancelSubscription(options: {
  schoolId: string;
  input: CancelSubscriptionInput;
  now: Date;
  /** Check and compute everything, write nothing (MCP's dry_run). */
  dryRun?: boolean;
  /** Who asks: written to the audit log with the change (lib/db/audit.ts). */
  actor: AuditActor;
  /**
   * The member's own cancel at period end (account page): a cancellation already scheduled stays
   * as it is instead of taking effect now, so a form submitted twice changes nothing the second time.
   */
  keepScheduled?: boolean;
}): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, input, now, dryRun, keepScheduled, actor } = options;
  return changeSubscription({ schoolId, id: input.id, now, dryRun, actor, action: "subscription.cancel" }, async (tx, sub) => {
    if (sub.state === "canceled") return failure<SubscriptionRecord>(ALREADY_CANCELLED);
    if (!isCancellable(sub)) return failure<SubscriptionRecord>(NOT_CANCELLABLE);

    const immediately = (endAt: Date) => ({
      state: "canceled" as const,
      cancelAt: null,
      canceledAt: now,
      endAt,
      nextChargeDate: null,
      scheduledPlanId: null,
      updatedAt: now,
    });
    // A cancellation withdraws a scheduled downgrade: the period end ends the subscription instead.
    const schedule = (at: Date, cancelType: string) => ({ cancelAt: at, nextChargeDate: null, cancelType, scheduledPlanId: null, updatedAt: now });

    if (sub.cancelAt && keepScheduled) return success(sub);
    let data;
    if (sub.cancelAt) {
      data = { ...immediately(now), cancelType: "immediate" };
    } else if (input.customEndedAt !== null && input.customEndedAt !== undefined) {
      const at = fromUnixSeconds(input.customEndedAt);
      // Compared at the precision the API exposes (seconds), like the period bounds of updates.
      if (sub.startAt && input.customEndedAt < toUnixSeconds(sub.startAt)!) return failure<SubscriptionRecord>(CUSTOM_END_BEFORE_START);
      data = at > now ? schedule(at, "custom_date") : { ...immediately(at), cancelType: "custom_date" };
    } else if (input.cancelAtPeriodEnd === false || !sub.currentPeriodEnd || sub.currentPeriodEnd <= now || sub.pausedAt) {
      // No future period end to wait for (or a paused one, which does not run): ending "at period end" means now.
      data = { ...immediately(now), cancelType: "immediate" };
    } else {
      data = schedule(sub.currentPeriodEnd, "at_period_end");
    }
    const updated = await tx.subscription.update({ where: { id: sub.id }, data, include: subscriptionInclude });
    const type = updated.state === "canceled" ? "subscription.canceled" : "subscription.canceling";
    const event = { schoolId, type, subjectId: updated.id, data: presentSubscription(updated) } as const;
    await recordEvent(tx, { event, now });
    await enqueueBillingMails(tx, { events: [event], now });
    return success(updated);
  });
}
