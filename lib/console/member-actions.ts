// The member page's actions (/manage/members/<id>), one per form: each parses its fields, checks
// that the subscription or payment it names belongs to this member at this school (else the verb's
// own "not found"), and calls the domain verb the Admin API and MCP call, so the rules, the error
// messages, the webhook events and the mails are theirs. The frame around them (access, origin,
// step-up, once per form) is ./perform.ts.
import { requestEmailVerification } from "../auth/email-verification";
import { requestPasswordReset } from "../auth/password-reset";
import { changeSubscriptionPlan } from "../billing/change-subscription-plan";
import { PAYMENT_NOT_FOUND, refundPayment } from "../billing/refund-payment";
import { isUuid } from "../core/ids";
import { db } from "../db/client";
import { cancelSubscription } from "../membership/cancel-subscription";
import { SUBSCRIPTION_NOT_FOUND } from "../membership/change-subscription";
import { createSubscription } from "../membership/create-subscription";
import { enrollStudentToCourse } from "../membership/enroll-student";
import { pauseSubscription } from "../membership/pause-subscription";
import { resumeSubscription } from "../membership/resume-subscription";
import { undoCancellation } from "../membership/undo-cancellation";
import { updateSubscription } from "../membership/update-subscription";
import type { ConsoleStaff } from "./access";
import { disableMember, enableMember } from "./disable-member";
import type { AuditActor } from "../db/audit";
import type { ConsoleNotice } from "./form-guard";
import type { ConsolePermission } from "./permissions";

export interface MemberActionContext {
  staff: ConsoleStaff;
  member: { id: string; email: string };
  field: (name: string) => string;
  address: string | null;
  now: Date;
  actor: AuditActor;
}

export interface MemberAction {
  permission: ConsolePermission;
  /** A sensitive action: the password again after 10 minutes (./step-up.ts). */
  stepUp?: boolean;
  run: (c: MemberActionContext) => Promise<ConsoleNotice>;
}

const done = (text: string): ConsoleNotice => ({ kind: "done", text });
const refused = (errors: readonly string[]): ConsoleNotice => ({ kind: "error", text: `${errors.join(" ")} Nothing was changed.` });

export const INVALID_DATE = "Enter a date as YYYY-MM-DD.";
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD date field as Unix seconds at the end of that day (UTC), or null when it is not one. */
export function endOfDaySeconds(value: string): number | null {
  const m = DATE.exec(value.trim());
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59);
  const d = new Date(ms);
  if (Number.isNaN(ms) || d.getUTCDate() !== Number(m[3]) || d.getUTCMonth() !== Number(m[2]) - 1) return null;
  return Math.floor(ms / 1000);
}

/** The member's own subscription at this school, by the form's id, or null. */
async function ownSubscription(c: MemberActionContext): Promise<string | null> {
  const id = c.field("subscription");
  if (!isUuid(id)) return null;
  const row = await db().subscription.findFirst({ where: { id, schoolId: c.staff.school.id, userId: c.member.id }, select: { id: true } });
  return row?.id ?? null;
}

function subscriptionAction(verb: (c: MemberActionContext, id: string) => Promise<{ errors: readonly string[] }>, message: string): MemberAction {
  return {
    permission: "members:write",
    run: async (c) => {
      const id = await ownSubscription(c);
      if (!id) return refused([SUBSCRIPTION_NOT_FOUND]);
      const { errors } = await verb(c, id);
      return errors.length ? refused(errors) : done(message);
    },
  };
}

export const MEMBER_ACTIONS = {
  "create-subscription": {
    permission: "members:write",
    run: async (c) => {
      const expire = c.field("expireAt");
      const expireAt = expire ? endOfDaySeconds(expire) : null;
      if (expire && expireAt === null) return refused([INVALID_DATE]);
      const { errors } = await createSubscription({ schoolId: c.staff.school.id, input: { email: c.member.email, planId: c.field("plan"), expireAt }, now: c.now, actor: c.actor });
      return errors.length ? refused(errors) : done("The subscription is created.");
    },
  },
  "update-period": {
    permission: "members:write",
    run: async (c) => {
      const id = await ownSubscription(c);
      if (!id) return refused([SUBSCRIPTION_NOT_FOUND]);
      const end = endOfDaySeconds(c.field("currentPeriodEnd"));
      if (end === null) return refused([INVALID_DATE]);
      const { errors } = await updateSubscription({ schoolId: c.staff.school.id, input: { id, currentPeriodEnd: end }, now: c.now, actor: c.actor });
      return errors.length ? refused(errors) : done("The current period's end is moved.");
    },
  },
  "cancel-at-period-end": subscriptionAction(
    (c, id) => cancelSubscription({ schoolId: c.staff.school.id, input: { id, cancelAtPeriodEnd: true }, now: c.now, actor: c.actor }),
    "The subscription will end at the end of the current period.",
  ),
  "cancel-now": subscriptionAction((c, id) => cancelSubscription({ schoolId: c.staff.school.id, input: { id, cancelAtPeriodEnd: false }, now: c.now, actor: c.actor }), "The subscription is cancelled now."),
  "undo-cancellation": subscriptionAction((c, id) => undoCancellation({ schoolId: c.staff.school.id, input: { id }, now: c.now, actor: c.actor }), "The cancellation is undone: the subscription continues."),
  pause: subscriptionAction((c, id) => pauseSubscription({ schoolId: c.staff.school.id, input: { id }, now: c.now, actor: c.actor }), "The subscription is paused."),
  resume: subscriptionAction((c, id) => resumeSubscription({ schoolId: c.staff.school.id, input: { id }, now: c.now, actor: c.actor }), "The subscription is resumed."),
  // The Admin API's changeSubscriptionPlan (staff may pick any plan but drafts, as an API key may):
  // an upgrade now (a charge_automatically subscription is charged the prorated difference first,
  // and a refused card's message is the refusal), a downgrade at the period end, the current plan
  // again withdraws a scheduled downgrade. No step-up: money goes from the member to the school
  // on a plan the school sells, as with creating a subscription, and a refund (step-up) undoes it.
  "change-plan": {
    permission: "members:write",
    run: async (c) => {
      const id = await ownSubscription(c);
      if (!id) return refused([SUBSCRIPTION_NOT_FOUND]);
      const planId = c.field("plan").slice(0, 64);
      const before = await db().subscription.findUniqueOrThrow({ where: { id }, select: { planId: true } });
      const { errors, record } = await changeSubscriptionPlan({ schoolId: c.staff.school.id, input: { id, planId }, now: c.now, actor: c.actor });
      if (errors.length || !record) return refused(errors);
      if (planId === before.planId) return done(`The scheduled plan change is withdrawn: the subscription stays on ${record.plan.name}.`);
      if (record.planId === planId) return done(`The subscription is now on ${record.plan.name}.`);
      const next = await db().membershipPlan.findUniqueOrThrow({ where: { id: planId }, select: { name: true } });
      return done(`The subscription moves to ${next.name} at the end of the current period; it stays on ${record.plan.name} until then.`);
    },
  },
  refund: {
    permission: "money:refund",
    stepUp: true,
    run: async (c) => {
      const paymentId = c.field("payment");
      const own = isUuid(paymentId) ? await db().payment.findFirst({ where: { id: paymentId, schoolId: c.staff.school.id, OR: [{ subscription: { userId: c.member.id } }, { userId: c.member.id }] }, select: { id: true } }) : null;
      if (!own) return refused([PAYMENT_NOT_FOUND]);
      const amount = c.field("amount").trim() || null;
      const { errors } = await refundPayment({ schoolId: c.staff.school.id, input: { paymentId: own.id, amount }, now: c.now, actor: c.actor });
      return errors.length ? refused(errors) : done(amount ? `${amount} is refunded.` : "The payment is refunded.");
    },
  },
  enroll: {
    permission: "members:write",
    run: async (c) => {
      const { errors } = await enrollStudentToCourse({ schoolId: c.staff.school.id, input: { courseId: c.field("course"), email: c.member.email }, now: c.now, actor: c.actor });
      return errors.length ? refused(errors) : done("The member is enrolled in the course.");
    },
  },
  "send-password-link": {
    permission: "members:write",
    run: async (c) => {
      const answer = await requestPasswordReset({ schoolId: c.staff.school.id, email: c.member.email, address: c.address, now: c.now });
      if (answer.status === "throttled") return { kind: "error", text: `Too many password links for this member: try again in ${Math.ceil(answer.retryAfterSeconds / 60)} minutes. Nothing was sent.` };
      if (answer.status === "invalid_email") return { kind: "error", text: "This member's email cannot receive mail. Nothing was sent." };
      return done(`A password link is on its way to ${c.member.email} (valid one hour).`);
    },
  },
  "send-verification-link": {
    permission: "members:write",
    run: async (c) => {
      const queued = await db().$transaction((tx) => requestEmailVerification({ tx, schoolId: c.staff.school.id, userId: c.member.id, now: c.now }));
      return queued ? done(`A verification link is on its way to ${c.member.email}.`) : { kind: "error", text: "This email is already verified (or this school sends no verification mail). Nothing was sent." };
    },
  },
  disable: {
    permission: "members:write",
    run: async (c) => {
      const r = await disableMember({ school: c.staff.school, userId: c.member.id, actorUserId: c.staff.session.userId, now: c.now, origin: c.staff.origin, actor: c.actor });
      if (!r.ok) return refused([r.error]);
      return done(`The member is disabled here: ${r.sessions} session(s) ended, ${r.apps} app(s) disconnected, and signing in here is refused.`);
    },
  },
  enable: {
    permission: "members:write",
    run: async (c) => {
      const r = await enableMember({ schoolId: c.staff.school.id, userId: c.member.id, now: c.now, actor: c.actor });
      if (!r.ok) return refused([r.error]);
      return done("The member is enabled: they can sign in here again.");
    },
  },
} satisfies Record<string, MemberAction>;

export type MemberActionName = keyof typeof MEMBER_ACTIONS;
export const isMemberActionName = (name: string): name is MemberActionName => Object.hasOwn(MEMBER_ACTIONS, name);
