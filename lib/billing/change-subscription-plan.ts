import { db } from "../db/client";
import { Prisma, type MembershipPlan, type Payment } from "../db/generated/client";
import { isUuid } from "../core/ids";
import type { AuditActor } from "../db/audit";
import { recordEvent } from "../db/outbox";
import { failure, success, TX_OPTIONS, type Payload } from "../db/write-transaction";
import { changeSubscription } from "../membership/change-subscription";
import { PLAN_NOT_FOUND } from "../membership/create-subscription";
import { PAYMENT_IN_PROGRESS } from "../membership/pause-subscription";
import { presentSubscription } from "../membership/presenter";
import { subscriptionInclude, type SubscriptionRecord } from "../membership/record-types";
import { ENDED_STATES, isCanceling } from "../membership/states";
import { ProviderUnavailableError, type ChargeResult } from "./provider";
import { holdsPlan, recordProration } from "./record-proration";
import { CHARGE_LEASE_MS, RECONCILE_AFTER_MS } from "./schedule";
import { providerNameFor } from "./provider-for";
import { sendCharge } from "./send-charge";

export interface ChangeSubscriptionPlanInput {
  id: string;
  /** The plan to move to (a MembershipPlan id of the same school). */
  planId: string;
}

export { PLAN_NOT_FOUND, PAYMENT_IN_PROGRESS };
export const CHANGE_ENDED = "Cannot change the plan of an ended subscription";
export const CHANGE_LIFETIME = "Lifetime subscriptions cannot change plan";
export const CHANGE_NOT_RECURRING = "Only recurring subscriptions can change plan";
export const CHANGE_PAUSED = "Cannot change the plan of a paused subscription; resume it first";
export const CHANGE_PAST_DUE = "Cannot change the plan of a past_due subscription; its failed payment must succeed first";
export const CHANGE_INCOMPLETE = "Cannot change the plan of an incomplete subscription; its first payment must succeed first";
export const CHANGE_CANCELING = "Cannot change the plan of a subscription that is pending cancellation";
export const PLAN_CLOSED = "Plan is not open for subscriptions";
export const PLAN_INCOMPATIBLE = "The new plan must be a recurring plan billed at the same interval and in the same currency";
export const SAME_PLAN = "Subscription is already on this plan";
export const ALREADY_ON_PLAN = "The member already has a live subscription to this plan";
export const PROVIDER_NO_ANSWER = "The payment provider did not answer; retry the plan change (it is never charged twice)";

/**
 * The prorated amount of an upgrade (Stripe's proration): the unused time of the old price credited
 * against the new price for the time left of the current period, to the cent (half up). 0 once the
 * period has run out (the renewal then charges the new price).
 */
export function prorationAmount(options: { from: Prisma.Decimal; to: Prisma.Decimal; periodStart: Date | null; periodEnd: Date | null; now: Date }): Prisma.Decimal {
  const { from, to, periodStart, periodEnd, now } = options;
  if (!periodStart || !periodEnd || periodEnd <= periodStart) return new Prisma.Decimal(0);
  const left = Math.min(Math.max(periodEnd.getTime() - now.getTime(), 0), periodEnd.getTime() - periodStart.getTime());
  const amount = to.minus(from).times(left).dividedBy(periodEnd.getTime() - periodStart.getTime());
  return amount.toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
}

/** The provider's idempotency key of one attempt at one upgrade: (subscription, period, new plan, attempt). */
export const prorationKeyOf = (subscriptionId: string, periodStart: Date, planId: string, attempt: number) =>
  `sub_${subscriptionId}_change_${planId}_period_${periodStart.getTime()}_attempt_${attempt}`;

/**
 * Moves a subscription to another plan (docs/decisions.md, "Billing", "Plan changes"), as Stripe
 * does with proration_behavior always_invoice for upgrades and a schedule for downgrades:
 * - same price or higher (an upgrade): now. A charge_automatically subscription is charged the
 *   prorated difference for the rest of the period first (off-session, with an idempotency key of
 *   the subscription, period, plan and attempt); refused, the plan stays and the card's message is
 *   the error. External collection and trials switch without a charge.
 * - lower price (a downgrade): scheduled for the period end (scheduledPlanId); the renewal charges
 *   the new plan's price and switches. Choosing the current plan again withdraws it.
 * Rules, first failure wins: subscription not found → plan not found (another school's too) →
 * ended → lifetime → not recurring → paused → past_due → incomplete → pending cancellation → plan
 * draft → not recurring at the same interval and currency → same plan with nothing scheduled → the
 * member holds the plan already → a payment in flight. `openOnly`: only published plans (the member's
 * own account page). Writes subscription.plan_changed (or subscription.plan_change_scheduled), and
 * the proration's payment.* event, in the transaction of the change.
 */
export async function changeSubscriptionPlan(options: {
  schoolId: string;
  input: ChangeSubscriptionPlanInput;
  now: Date;
  dryRun?: boolean;
  openOnly?: boolean;
  /** Who asks: the audit log's actor of the change and of its proration's outcome. */
  actor: AuditActor;
}): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, input, now, dryRun, openOnly, actor } = options;
  let charge: Payment | null = null;
  let resume = false;
  const opened = await changeSubscription({ schoolId, id: input.id, now, dryRun, actor, action: "subscription.change_plan" }, async (tx, sub) => {
    const plan = isUuid(input.planId) ? await tx.membershipPlan.findFirst({ where: { id: input.planId, schoolId } }) : null;
    if (!plan) return failure<SubscriptionRecord>(PLAN_NOT_FOUND);
    const refused = refusal(sub, plan, !!openOnly);
    if (refused) return failure<SubscriptionRecord>(refused);
    const save = async (data: Prisma.SubscriptionUncheckedUpdateInput, type: "subscription.plan_changed" | "subscription.plan_change_scheduled") => {
      const updated = await tx.subscription.update({ where: { id: sub.id }, data: { ...data, updatedAt: now }, include: subscriptionInclude });
      await recordEvent(tx, { event: { schoolId, type, subjectId: updated.id, data: presentSubscription(updated) }, now });
      return success(updated);
    };
    if (plan.id !== sub.planId && (await holdsPlan(tx, sub, plan.id))) return failure<SubscriptionRecord>(ALREADY_ON_PLAN);
    // A renewal in flight (its lease) or a pending payment settles first, except this same upgrade's
    // own (its retry resumes it): a renewal's pending charge already carries the plan it pays for.
    const pending = await tx.payment.findFirst({ where: { subscriptionId: sub.id, state: "pending" } });
    const same = pending?.billingReason === "subscription_update" && pending.planId === plan.id;
    if ((pending && !same) || (!pending && sub.chargeLockedUntil && sub.chargeLockedUntil > now)) return failure<SubscriptionRecord>(PAYMENT_IN_PROGRESS);
    if (plan.id === sub.planId) return save({ scheduledPlanId: null }, "subscription.plan_change_scheduled");
    if (same) {
      charge = pending;
      resume = true;
      return success(sub);
    }
    if (plan.price.lessThan(sub.plan.price) && sub.state !== "trialing") return save({ scheduledPlanId: plan.id }, "subscription.plan_change_scheduled");

    const amount = prorationAmount({ from: sub.plan.price, to: plan.price, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd, now });
    if (sub.collectionMethod === "external" || sub.state === "trialing" || amount.lessThanOrEqualTo(0)) {
      return save({ planId: plan.id, scheduledPlanId: null }, "subscription.plan_changed");
    }
    if (dryRun) return success({ ...sub, planId: plan.id, plan, scheduledPlanId: null, updatedAt: now });
    const periodStart = sub.currentPeriodStart!;
    const attempt = 1 + (await tx.payment.count({ where: { subscriptionId: sub.id, billingReason: "subscription_update", planId: plan.id, periodStart: { gte: periodStart } } }));
    charge = await tx.payment.create({
      data: {
        schoolId,
        subscriptionId: sub.id,
        amount,
        currency: plan.currency,
        state: "pending",
        periodStart: now,
        periodEnd: sub.currentPeriodEnd,
        billingReason: "subscription_update",
        provider: await providerNameFor(tx, { schoolId }),
        paymentMethodId: sub.paymentMethodId,
        idempotencyKey: prorationKeyOf(sub.id, periodStart, plan.id, attempt),
        attempt,
        planId: plan.id,
        createdAt: now,
        updatedAt: now,
      },
    });
    // The lease keeps renewal workers off the subscription while its charge is in flight.
    await tx.subscription.update({ where: { id: sub.id }, data: { chargeLockedUntil: new Date(now.getTime() + CHARGE_LEASE_MS) } });
    return success(sub);
  });
  const payment = charge as Payment | null;
  if (!payment || opened.errors.length) return opened;
  return collectProration({ payment, reconcile: resume, now, actor });
}

function refusal(sub: SubscriptionRecord, plan: MembershipPlan, openOnly: boolean): string | null {
  if (ENDED_STATES.includes(sub.state)) return CHANGE_ENDED;
  if (sub.plan.planType === "lifetime") return CHANGE_LIFETIME;
  if (sub.plan.planType !== "recurring") return CHANGE_NOT_RECURRING;
  if (sub.pausedAt) return CHANGE_PAUSED;
  if (sub.state === "past_due") return CHANGE_PAST_DUE;
  if (sub.state === "incomplete") return CHANGE_INCOMPLETE;
  if (isCanceling(sub)) return CHANGE_CANCELING;
  if (plan.status === "draft" || (openOnly && plan.status !== "published")) return PLAN_CLOSED;
  const compatible = plan.planType === "recurring" && plan.interval === sub.plan.interval && plan.intervalCount === sub.plan.intervalCount && plan.currency === sub.plan.currency;
  if (!compatible) return PLAN_INCOMPATIBLE;
  if (plan.id === sub.planId && !sub.scheduledPlanId) return SAME_PLAN;
  return null;
}

/**
 * The proration's charge, outside any transaction, then its outcome in one. A pending proration
 * from before (a time-out, a crash) is looked up with the provider first, so a charge made before
 * the answer was lost is found, never made twice.
 */
async function collectProration(options: { payment: Payment; reconcile: boolean; now: Date; actor: AuditActor }): Promise<Payload<SubscriptionRecord>> {
  const { payment, reconcile, now, actor } = options;
  // A proration is always a subscription's payment (never a one-time purchase).
  const subscriptionId = payment.subscriptionId!;
  let result: ChargeResult;
  try {
    result = await sendCharge({ payment, reconcile });
  } catch (err) {
    if (!(err instanceof ProviderUnavailableError)) throw err;
    // Left pending; a retry of the change, or the renewal run after this lease, reconciles it.
    await db().subscription.update({ where: { id: subscriptionId }, data: { chargeLockedUntil: new Date(now.getTime() + RECONCILE_AFTER_MS) } });
    return failure(PROVIDER_NO_ANSWER);
  }
  const outcome = await db().$transaction(async (tx) => recordProration(tx, { payment, result, now, actor }), TX_OPTIONS);
  if (outcome.kind === "succeeded") return success(outcome.subscription);
  if (outcome.kind === "failed") return failure(outcome.failureMessage);
  // Recorded by someone else meanwhile (a renewal run's reconciliation): answer with its outcome.
  const recorded = await db().payment.findUniqueOrThrow({ where: { id: payment.id } });
  if (recorded.state === "failed") return failure(recorded.failureMessage ?? PROVIDER_NO_ANSWER);
  return success(await db().subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: subscriptionInclude }));
}
