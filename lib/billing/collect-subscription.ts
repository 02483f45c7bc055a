import { db } from "../db/client";
import type { Payment, Prisma } from "../db/generated/client";
import { recordEvents, type OutboxEvent } from "../db/outbox";
import { TX_OPTIONS } from "../db/write-transaction";
import { changedFields, recordAudit, systemActor, type AuditActor } from "../db/audit";
import { AUDITED_SUBSCRIPTION_FIELDS } from "../membership/change-subscription";
import { enqueueBillingMails } from "../mail/billing-mails";
import { presentPayment, presentSubscription } from "../membership/presenter";
import { subscriptionInclude, type SubscriptionRecord } from "../membership/record-types";
import { LIVE_STATES } from "../membership/states";
import { addInterval } from "../membership/time";
import { ProviderUnavailableError, type ChargeResult } from "./provider";
import { holdsPlan, recordProration } from "./record-proration";
import { RECONCILE_AFTER_MS, retryAt } from "./schedule";
import { providerNameFor, providerOfPayment } from "./provider-for";

type Tx = Prisma.TransactionClient;

/** Billing steps are the platform's, whoever started the run (cron, worker, a purchase's first charge, a test clock). */
export const RENEWALS_ACTOR = systemActor("renewals");

export type CollectOutcome =
  | "renewed_without_charge"
  | "succeeded"
  | "failed"
  /** The provider did not answer: the payment stays pending and is reconciled on a later run. */
  | "unknown"
  /** Nothing was due any more (another worker, a cancellation, or the lease was lost). */
  | "skipped";

/** The period a charge of this subscription pays for, and why (Stripe's billing_reason). */
export function periodToCharge(s: SubscriptionRecord): { start: Date; end: Date | null; reason: "subscription_create" | "subscription_cycle" } {
  if (s.state === "incomplete") return { start: s.currentPeriodStart ?? s.createdAt, end: s.currentPeriodEnd, reason: "subscription_create" };
  const start = s.currentPeriodEnd!;
  return { start, end: addInterval(start, s.plan.interval ?? "month", s.plan.intervalCount), reason: "subscription_cycle" };
}

/** The provider's idempotency key of one attempt at one period: the same attempt is always the same charge. */
export const idempotencyKeyOf = (subscriptionId: string, periodStart: Date, attempt: number) =>
  `sub_${subscriptionId}_period_${periodStart.getTime()}_attempt_${attempt}`;

/**
 * Whether a member may pay a past_due subscription's missed period now, whatever its next retry
 * says (updatePaymentMethod): the same subscriptions a renewal run would retry, without the date.
 */
export const isRetryableNow = (s: SubscriptionRecord) =>
  s.state === "past_due" &&
  s.collectionMethod === "charge_automatically" &&
  s.cancelAt === null &&
  s.pausedAt === null &&
  s.plan.planType === "recurring" &&
  s.currentPeriodEnd !== null;

const isDue = (s: SubscriptionRecord, now: Date) =>
  LIVE_STATES.includes(s.state) &&
  s.cancelAt === null &&
  s.pausedAt === null &&
  s.nextChargeDate !== null &&
  s.nextChargeDate <= now &&
  (s.state === "incomplete" || (s.plan.planType === "recurring" && s.currentPeriodEnd !== null));

/**
 * One step of billing for one subscription this worker has claimed (lease = its chargeLockedUntil):
 * 1. in a transaction, with the row locked: a pending payment left by an earlier run is taken up
 *    (reconciliation); otherwise an externally collected subscription renews its period without a
 *    charge, and an automatically collected one gets a pending Payment for its next period (the
 *    unique indexes refuse a second for the same period and attempt);
 * 2. the provider is asked, outside any transaction: for a pending payment from before, findCharge
 *    first, so a charge made before a time-out or a crash is found, not made again; then charge with
 *    the payment's idempotency key;
 * 3. in a transaction, the outcome: the payment (only while still pending), the subscription's
 *    transition and their webhook events.
 * `onSession`: the member asked for this charge (a new payment method saved while past_due): due
 * while past_due whatever nextChargeDate says, charged on-session, and its failure leaves the state
 * and the retry schedule as they were (only off-session failures move them).
 * `actor`: who asked for this charge, the audit log's actor of its outcome (payment.collect /
 * payment.fail): the member or key behind updatePaymentMethod. A billing step nobody asked for
 * (renewals, reconciliation, a pending payment taken up from an earlier run) is RENEWALS_ACTOR.
 */
export async function collectSubscription(options: {
  subscriptionId: string;
  lease: Date;
  now: Date;
  /** Only finish a pending payment (a provider's webhook said it moved): never start a charge. */
  reconcileOnly?: boolean;
  /** The member is present (a new payment method while past_due): charged now, not when due. */
  onSession?: boolean;
  /** Who asked for the charge (updatePaymentMethod's caller); RENEWALS_ACTOR when omitted. */
  actor?: AuditActor;
}): Promise<CollectOutcome> {
  const { subscriptionId, lease, now } = options;
  const onSession = options.onSession === true;
  const opened = await db().$transaction(async (tx) => open(tx, { subscriptionId, lease, now, reconcileOnly: !!options.reconcileOnly, onSession }), TX_OPTIONS);
  if (opened.kind !== "charge") return opened.kind;
  const { payment, reconcile } = opened;
  // A payment taken up from an earlier run is that run's: only a charge this call started is the caller's.
  const actor = reconcile ? RENEWALS_ACTOR : (options.actor ?? RENEWALS_ACTOR);
  let result: ChargeResult;
  try {
    const provider = await providerOfPayment({ schoolId: payment.schoolId, provider: payment.provider });
    const found = reconcile ? await provider.findCharge({ idempotencyKey: payment.idempotencyKey! }) : null;
    result =
      found ??
      (await provider.charge({
        idempotencyKey: payment.idempotencyKey!,
        amount: payment.amount.toFixed(2),
        currency: payment.currency,
        paymentMethodId: payment.paymentMethodId ?? "",
        offSession: payment.offSession,
      }));
  } catch (err) {
    if (!(err instanceof ProviderUnavailableError)) throw err;
    // Left pending; the lease moves to when it may be reconciled, so no run retries at once.
    await db().subscription.updateMany({
      where: { id: subscriptionId, chargeLockedUntil: lease },
      data: { chargeLockedUntil: new Date(now.getTime() + RECONCILE_AFTER_MS) },
    });
    return "unknown";
  }
  if (payment.billingReason === "subscription_update") {
    // An upgrade's proration whose answer was lost: recorded as changeSubscriptionPlan would have.
    const outcome = await db().$transaction(async (tx) => recordProration(tx, { payment, result, now, actor }), TX_OPTIONS);
    return outcome.kind;
  }
  return db().$transaction(async (tx) => record(tx, { payment, result, now, actor }), TX_OPTIONS);
}

type Opened = { kind: "skipped" | "renewed_without_charge" } | { kind: "charge"; payment: Payment; reconcile: boolean };

async function open(tx: Tx, options: { subscriptionId: string; lease: Date; now: Date; reconcileOnly: boolean; onSession: boolean }): Promise<Opened> {
  const { subscriptionId, lease, now, onSession } = options;
  // The row lock orders this against cancellations and updates of the same subscription.
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id"::text FROM "Subscription" WHERE "id" = ${subscriptionId}::uuid AND "chargeLockedUntil" = ${lease} FOR UPDATE`;
  if (!locked.length) return { kind: "skipped" };
  const s = await tx.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: subscriptionInclude });
  const pending = await tx.payment.findFirst({ where: { subscriptionId, state: "pending" }, orderBy: { createdAt: "asc" } });
  if (pending) return { kind: "charge", payment: pending, reconcile: true };
  if (options.reconcileOnly || !(onSession ? isRetryableNow(s) : isDue(s, now))) {
    await tx.subscription.update({ where: { id: subscriptionId }, data: { chargeLockedUntil: null } });
    return { kind: "skipped" };
  }
  const period = periodToCharge(s);
  // A downgrade scheduled for this period end (changeSubscriptionPlan): the next period is the new plan's.
  const scheduled = period.reason === "subscription_cycle" && s.scheduledPlanId && !(await holdsPlan(tx, s, s.scheduledPlanId))
    ? await tx.membershipPlan.findUnique({ where: { id: s.scheduledPlanId } })
    : null;
  const plan = scheduled ?? s.plan;
  if (s.collectionMethod === "external") {
    const updated = await tx.subscription.update({
      where: { id: subscriptionId },
      data: {
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        nextChargeDate: period.end,
        chargeLockedUntil: null,
        updatedAt: now,
        ...(scheduled ? { planId: scheduled.id, scheduledPlanId: null } : {}),
      },
      include: subscriptionInclude,
    });
    const events = [subscriptionEvent(updated, "subscription.renewed")];
    if (scheduled) events.push(subscriptionEvent(updated, "subscription.plan_changed"));
    await recordEvents(tx, { events, now });
    const summary = changedFields(s, updated, AUDITED_SUBSCRIPTION_FIELDS);
    await recordAudit(tx, { actor: RENEWALS_ACTOR, now, entry: { schoolId: s.schoolId, action: "subscription.renew", target: { type: "subscription", id: s.id }, summary } });
    return { kind: "renewed_without_charge" };
  }
  const failedBefore = await tx.payment.count({ where: { subscriptionId, periodStart: period.start, state: "failed", billingReason: { not: "subscription_update" } } });
  const attempt = failedBefore + 1;
  const payment = await tx.payment.create({
    data: {
      schoolId: s.schoolId,
      subscriptionId,
      amount: plan.price,
      currency: plan.currency,
      state: "pending",
      periodStart: period.start,
      periodEnd: period.end,
      billingReason: period.reason,
      // The school's provider now; the payment keeps it (providerOfPayment finishes it there).
      provider: await providerNameFor(tx, { schoolId: s.schoolId }),
      paymentMethodId: s.paymentMethodId,
      idempotencyKey: idempotencyKeyOf(subscriptionId, period.start, attempt),
      attempt,
      planId: plan.id,
      offSession: !onSession && period.reason === "subscription_cycle",
      createdAt: now,
      updatedAt: now,
    },
  });
  return { kind: "charge", payment, reconcile: false };
}

function subscriptionEvent(s: SubscriptionRecord, type: OutboxEvent["type"]): OutboxEvent {
  return { schoolId: s.schoolId, type, subjectId: s.id, data: presentSubscription(s) };
}

async function record(tx: Tx, options: { payment: Payment; result: ChargeResult; now: Date; actor: AuditActor }): Promise<CollectOutcome> {
  const { payment, result, now, actor } = options;
  const succeeded = result.status === "succeeded";
  // Only a pending payment takes an outcome: a second recorder (a worker that lost its lease) changes nothing.
  const { count } = await tx.payment.updateMany({
    where: { id: payment.id, state: "pending" },
    data: succeeded
      ? { state: "succeeded", paidAt: now, providerPaymentId: result.providerPaymentId, updatedAt: now }
      : { state: "failed", failedAt: now, providerPaymentId: result.providerPaymentId, failureCode: result.failureCode, failureMessage: result.failureMessage, updatedAt: now },
  });
  if (count === 0) return "skipped";
  const paid = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
  const events: OutboxEvent[] = [{ schoolId: paid.schoolId, type: succeeded ? "payment.succeeded" : "payment.failed", subjectId: paid.id, data: presentPayment(paid) }];
  // A renewal's or a proration's payment always has its subscription (only one-time purchases have none).
  const subscriptionId = paid.subscriptionId!;
  await tx.$queryRaw`SELECT 1 FROM "Subscription" WHERE "id" = ${subscriptionId}::uuid FOR UPDATE`;
  const s = await tx.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: subscriptionInclude });
  const base = { chargeLockedUntil: null, updatedAt: now };
  // A subscription that ended or was set to cancel meanwhile keeps its state: the payment is recorded as it went.
  const applies = LIVE_STATES.includes(s.state) && s.cancelAt === null;
  let update: Prisma.SubscriptionUncheckedUpdateInput = base;
  let type: OutboxEvent["type"] | null = null;
  if (applies && succeeded && paid.billingReason === "subscription_create") {
    update = { ...base, state: "active", nextChargeDate: s.plan.planType === "recurring" ? s.currentPeriodEnd : null };
    type = "subscription.activated";
  } else if (applies && succeeded) {
    update = { ...base, state: "active", currentPeriodStart: paid.periodStart, currentPeriodEnd: paid.periodEnd, nextChargeDate: paid.periodEnd };
    type = "subscription.renewed";
    // The period paid is the scheduled downgrade's: the plan switches with it.
    if (paid.planId && paid.planId !== s.planId && !(await holdsPlan(tx, s, paid.planId))) update = { ...update, planId: paid.planId, scheduledPlanId: null };
  } else if (applies && paid.billingReason === "subscription_create") {
    // No automatic retry of a first charge (Stripe's incomplete): it expires unless paid.
    update = { ...base, nextChargeDate: null };
  } else if (applies && !paid.offSession) {
    // The member's own attempt (updatePaymentMethod) failed: still past_due, the next retry unchanged.
    update = base;
  } else if (applies) {
    // The schedule counts the renewal's own attempts, not the ones a member made meanwhile.
    const scheduledFailures = await tx.payment.count({ where: { subscriptionId: s.id, periodStart: paid.periodStart, state: "failed", offSession: true } });
    const next = retryAt(now, scheduledFailures);
    if (next) {
      update = { ...base, state: "past_due", nextChargeDate: next };
      type = s.state === "past_due" ? null : "subscription.past_due";
    } else {
      update = { ...base, state: "canceled", cancelType: "payment_failed", canceledAt: now, endAt: now, nextChargeDate: null };
      type = "subscription.canceled";
    }
  }
  const updated = await tx.subscription.update({ where: { id: s.id }, data: update, include: subscriptionInclude });
  if (type) events.push(subscriptionEvent(updated, type));
  if (updated.planId !== s.planId) events.push(subscriptionEvent(updated, "subscription.plan_changed"));
  await recordEvents(tx, { events, now });
  const summary = {
    subscriptionId: s.id,
    payment: { state: { from: "pending", to: paid.state }, amount: paid.amount, currency: paid.currency, failureCode: paid.failureCode },
    ...changedFields(s, updated, AUDITED_SUBSCRIPTION_FIELDS),
  };
  await recordAudit(tx, { actor, now, entry: { schoolId: paid.schoolId, action: succeeded ? "payment.collect" : "payment.fail", target: { type: "payment", id: paid.id }, summary } });
  await enqueueBillingMails(tx, { events, now });
  return succeeded ? "succeeded" : "failed";
}
