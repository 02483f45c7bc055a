import type { Payment, Prisma } from "../db/generated/client";
import { changedFields, recordAudit, type AuditActor } from "../db/audit";
import { AUDITED_SUBSCRIPTION_FIELDS } from "../membership/change-subscription";
import { recordEvents, type OutboxEvent } from "../db/outbox";
import { enqueueBillingMails } from "../mail/billing-mails";
import { presentPayment, presentSubscription } from "../membership/presenter";
import { subscriptionInclude, type SubscriptionRecord } from "../membership/record-types";
import { LIVE_STATES } from "../membership/states";
import type { ChargeResult } from "./provider";
import { settlePayments } from "./settle-payments";

type Tx = Prisma.TransactionClient;

export type ProrationOutcome =
  | { kind: "succeeded"; subscription: SubscriptionRecord }
  | { kind: "failed"; failureMessage: string }
  /** Another recorder (the verb's retry, a renewal worker's reconciliation) recorded it first. */
  | { kind: "skipped" };

/**
 * Records the provider's answer to an upgrade's prorated charge (billingReason subscription_update),
 * once: only a pending payment takes an outcome. Paid: the subscription moves to the payment's plan
 * (any scheduled downgrade withdrawn) with payment.succeeded and subscription.plan_changed. Refused:
 * the payment is failed (payment.failed) and the plan stays as it was; no payment-failed mail, since
 * nothing the member has is at risk (the change was simply not made). Called by changeSubscriptionPlan
 * and by the renewal run's reconciliation of a proration whose answer was lost.
 */
export async function recordProration(tx: Tx, options: { payment: Payment; result: ChargeResult; now: Date; actor: AuditActor }): Promise<ProrationOutcome> {
  const { payment, result, now, actor } = options;
  const succeeded = result.status === "succeeded";
  const [paid] = await settlePayments(tx, { results: [{ payment, result }], now });
  if (!paid) return { kind: "skipped" };
  const events: OutboxEvent[] = [{ schoolId: paid.schoolId, type: succeeded ? "payment.succeeded" : "payment.failed", subjectId: paid.id, data: presentPayment(paid) }];
  // A renewal's or a proration's payment always has its subscription (only one-time purchases have none).
  const subscriptionId = paid.subscriptionId!;
  await tx.$queryRaw`SELECT 1 FROM "Subscription" WHERE "id" = ${subscriptionId}::uuid FOR UPDATE`;
  const s = await tx.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: subscriptionInclude });
  const applies = succeeded && paid.planId !== null && paid.planId !== s.planId && LIVE_STATES.includes(s.state) && !(await holdsPlan(tx, s, paid.planId));
  const updated = await tx.subscription.update({
    where: { id: s.id },
    data: applies ? { planId: paid.planId!, scheduledPlanId: null, chargeLockedUntil: null, updatedAt: now } : { chargeLockedUntil: null },
    include: subscriptionInclude,
  });
  if (applies) events.push({ schoolId: s.schoolId, type: "subscription.plan_changed", subjectId: s.id, data: presentSubscription(updated) });
  await recordEvents(tx, { events, now });
  const summary = {
    subscriptionId: s.id,
    payment: { state: { from: "pending", to: paid.state }, amount: paid.amount, currency: paid.currency, failureCode: paid.failureCode },
    ...changedFields(s, updated, AUDITED_SUBSCRIPTION_FIELDS),
  };
  await recordAudit(tx, { actor, now, entry: { schoolId: paid.schoolId, action: succeeded ? "payment.collect" : "payment.fail", target: { type: "payment", id: paid.id }, summary } });
  if (!succeeded) return { kind: "failed", failureMessage: paid.failureMessage ?? "The payment was refused" };
  await enqueueBillingMails(tx, { events, now });
  return { kind: "succeeded", subscription: updated };
}

/**
 * Whether the member already has another live subscription to this plan (the live-subscription
 * index would refuse the switch): then the switch is not made. Only a race can get here (the verb
 * refuses such a change up front); the payment stays recorded for staff to refund.
 */
export async function holdsPlan(tx: Tx, s: { id: string; userId: string }, planId: string): Promise<boolean> {
  const other = await tx.subscription.count({ where: { userId: s.userId, planId, id: { not: s.id }, state: { in: [...LIVE_STATES] } } });
  return other > 0;
}
