import { toUnixSeconds } from "../clock";
import type { Course, MembershipPlan, Payment, Subscription, User } from "../db/generated/client";
import type { EnrollmentRecord, SubscriptionRecord } from "./record-types";
import { isCanceling, isCancellable } from "./states";

// Records → the wire shapes every transport shows (GraphQL types, MCP structured content):
// timestamps as Unix seconds, money as decimal strings, derived flags computed once.

const ts = toUnixSeconds;
const money = (d: { toFixed(n: number): string }) => d.toFixed(2);

export function presentUser(u: User) {
  return { id: u.id, email: u.email, name: u.name };
}

export function presentPlan(p: MembershipPlan) {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    planType: p.planType,
    isLifetime: p.planType === "lifetime",
    interval: p.interval,
    intervalCount: p.intervalCount,
    price: money(p.price),
    currency: p.currency,
    lengthCount: p.lengthCount,
    lengthInterval: p.lengthInterval,
    fixedEndAt: ts(p.fixedEndAt),
    status: p.status,
  };
}

/**
 * A subscription's own columns on the wire; plan, user and isCancellable (which needs the plan)
 * come from presentSubscription, or from the Admin API's per-request loaders.
 */
export function presentSubscriptionRow(s: Subscription) {
  return {
    id: s.id,
    cancelReason: s.cancelReason,
    cancelType: s.cancelType,
    createdAt: ts(s.createdAt)!,
    updatedAt: ts(s.updatedAt)!,
    currentPeriodStart: ts(s.currentPeriodStart),
    currentPeriodEnd: ts(s.currentPeriodEnd),
    startAt: ts(s.startAt),
    endAt: ts(s.endAt),
    nextChargeDate: ts(s.nextChargeDate),
    cancelAt: ts(s.cancelAt),
    canceledAt: ts(s.canceledAt),
    isCanceling: isCanceling(s),
    planId: s.planId,
    state: s.state,
    collectionMethod: s.collectionMethod,
    pausedAt: ts(s.pausedAt),
    isPaused: s.pausedAt !== null,
    scheduledPlanId: s.scheduledPlanId,
  };
}

export function presentSubscription(s: SubscriptionRecord) {
  // Key order as clients and stored webhook payloads have always seen it.
  const { planId, state, collectionMethod, pausedAt, isPaused, scheduledPlanId, ...head } = presentSubscriptionRow(s);
  return { ...head, isCancellable: isCancellable(s), plan: presentPlan(s.plan), planId, state, user: presentUser(s.user), collectionMethod, pausedAt, isPaused, scheduledPlanId };
}

export function presentPayment(p: Payment) {
  return {
    id: p.id,
    amount: money(p.amount),
    currency: p.currency,
    state: p.state,
    paidAt: ts(p.paidAt),
    createdAt: ts(p.createdAt)!,
    subscriptionId: p.subscriptionId,
    periodStart: ts(p.periodStart),
    periodEnd: ts(p.periodEnd),
    billingReason: p.billingReason,
    provider: p.provider,
    providerPaymentId: p.providerPaymentId,
    paymentMethodId: p.paymentMethodId,
    attempt: p.attempt,
    failureCode: p.failureCode,
    failureMessage: p.failureMessage,
    failedAt: ts(p.failedAt),
    refundedAmount: money(p.refundedAmount),
    refundedAt: ts(p.refundedAt),
    planId: p.planId,
    userId: p.userId,
    courseId: p.courseId,
    downloadId: p.downloadId,
    description: p.description,
  };
}

export function presentCourse(c: Course) {
  return {
    id: c.id,
    slug: c.slug,
    title: c.title,
    summary: c.summary,
    status: c.status,
    price: c.price === null ? null : money(c.price),
    currency: c.currency,
  };
}

export function presentEnrollment(e: EnrollmentRecord) {
  return { id: e.id, createdAt: ts(e.createdAt)!, course: presentCourse(e.course), user: presentUser(e.user) };
}

export type SubscriptionWire = ReturnType<typeof presentSubscription>;
export type SubscriptionRowWire = ReturnType<typeof presentSubscriptionRow>;
export type PlanWire = ReturnType<typeof presentPlan>;
export type UserWire = ReturnType<typeof presentUser>;
export type PaymentWire = ReturnType<typeof presentPayment>;
export type EnrollmentWire = ReturnType<typeof presentEnrollment>;
