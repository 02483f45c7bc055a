// What the member page shows (/manage/members/<id>): one member of the host's school with their
// subscriptions, payments, enrollments, sessions and connected apps, and what the forms offer.
// Every read is keyed by the school: another school's member id finds nothing (404).
import { db } from "../db/client";
import { findMember } from "../membership/find-member";
import { listMemberEnrollments } from "../membership/list-member-enrollments";
import { listMemberSubscriptions } from "../membership/list-member-subscriptions";
import { isCancellable, isCanceling, isLive } from "../membership/states";
import { listMemberGrants } from "../oauth/member-grants/list-member-grants";
import type { ConsoleStaff } from "./access";
import { memberSchoolSessions } from "./school-sessions";

const MAX_PAYMENTS = 100;

export async function memberView(o: { staff: Pick<ConsoleStaff, "school">; memberId: string; now: Date }) {
  const school = o.staff.school;
  const member = await findMember({ schoolId: school.id, id: o.memberId });
  if (!member) return null;
  const userId = member.id;
  const [membership, subscriptions, payments, enrollments, sessions, apps, plans, courses] = await Promise.all([
    db().schoolMembership.findUniqueOrThrow({ where: { id: member.membershipId }, select: { disabledAt: true } }),
    listMemberSubscriptions({ schoolId: school.id, userId, now: o.now }),
    db().payment.findMany({
      // A subscription's payments and the member's one-time purchases (a course, a download).
      where: { schoolId: school.id, OR: [{ subscription: { userId } }, { userId }] },
      select: { id: true, amount: true, refundedAmount: true, currency: true, state: true, paidAt: true, failedAt: true, failureMessage: true, createdAt: true, provider: true, description: true, subscription: { select: { plan: { select: { name: true } } } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: MAX_PAYMENTS,
    }),
    listMemberEnrollments({ schoolId: school.id, userId }),
    memberSchoolSessions({ school, userId, now: o.now }),
    listMemberGrants({ db: db(), schoolId: school.id, userId, now: o.now }),
    db().membershipPlan.findMany({
      where: { schoolId: school.id },
      select: { id: true, name: true, planType: true, status: true, interval: true, intervalCount: true, currency: true, price: true },
      orderBy: [{ position: "asc" }, { id: "asc" }],
    }),
    db().course.findMany({ where: { schoolId: school.id }, select: { id: true, title: true }, orderBy: [{ position: "asc" }, { title: "asc" }], take: 500 }),
  ]);
  const enrolled = new Set(enrollments.map((e) => e.courseId));
  const planNames = new Map(plans.map((p) => [p.id, p.name]));
  // The plans changeSubscriptionPlan would take for a subscription (it decides again on submit):
  // recurring, not a draft, the same interval and currency, not held by another live subscription
  // of the member; the current plan only to withdraw a scheduled downgrade.
  const planChoices = (s: (typeof subscriptions)[number]) => {
    const changeable = s.plan.planType === "recurring" && (s.state === "active" || s.state === "trialing") && s.pausedAt === null && !isCanceling(s);
    if (!changeable) return [];
    const held = new Set(subscriptions.filter((o) => o.id !== s.id && isLive(o.state)).map((o) => o.planId));
    return plans
      .filter((p) => p.planType === "recurring" && p.status !== "draft" && p.interval === s.plan.interval && p.intervalCount === s.plan.intervalCount && p.currency === s.plan.currency)
      .filter((p) => !held.has(p.id) && (p.id !== s.planId || s.scheduledPlanId !== null))
      .map((p) => ({ id: p.id, label: `${p.name}, ${p.price.toFixed(2)} ${p.currency.trim()}${p.id === s.planId ? " (keep this plan)" : ""}` }));
  };
  return {
    member: { ...member, disabledAt: membership.disabledAt },
    subscriptions: subscriptions.map((s) => ({
      id: s.id,
      planName: s.plan.name,
      planType: s.plan.planType,
      state: s.state,
      paused: s.pausedAt !== null,
      canceling: isCanceling(s),
      currentPeriodStart: s.currentPeriodStart,
      currentPeriodEnd: s.currentPeriodEnd,
      endAt: s.endAt,
      cancelAt: s.cancelAt,
      // What the forms offer; the verbs decide again on submit.
      canCancel: isCancellable(s) && !isCanceling(s),
      canUndo: isCanceling(s) && isLive(s.state),
      canPause: (s.state === "active" || s.state === "trialing") && s.pausedAt === null && !isCanceling(s) && s.plan.planType !== "lifetime",
      canResume: s.pausedAt !== null,
      canMovePeriod: s.plan.planType !== "lifetime" && isLive(s.state) && !isCanceling(s),
      scheduledPlanName: s.scheduledPlanId ? (planNames.get(s.scheduledPlanId) ?? "another plan") : null,
      planChoices: planChoices(s),
    })),
    payments: payments.map((p) => ({
      id: p.id,
      planName: p.subscription?.plan.name ?? p.description ?? "",
      amount: p.amount.toFixed(2),
      refunded: p.refundedAmount.toFixed(2),
      currency: p.currency.trim(),
      state: p.state,
      at: p.paidAt ?? p.failedAt ?? p.createdAt,
      failure: p.failureMessage,
      provider: p.provider,
      canRefund: p.state === "succeeded" && p.refundedAmount.lessThan(p.amount),
    })),
    enrollments: enrollments.map((e) => ({ id: e.id, title: e.course.title, at: e.createdAt })),
    sessions,
    apps,
    plans: plans.map((p) => ({ id: p.id, name: p.name, planType: p.planType, status: p.status })),
    coursesToEnroll: courses.filter((c) => !enrolled.has(c.id)),
  };
}

export type MemberView = NonNullable<Awaited<ReturnType<typeof memberView>>>;
