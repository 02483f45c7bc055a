// What a checkout may sell and to whom: the plan as the content holds it now, the school's gate and
// the one-live-subscription rule, shared by startCheckout and the storefront's review page.
import { isUuid } from "../core/ids";
import type { Prisma } from "../db/generated/client";
import type { MembershipPlan } from "../db/generated/client";
import { LIVE_STATES } from "../membership/states";
import { addInterval } from "../membership/time";

type Db = Pick<Prisma.TransactionClient, "membershipPlan" | "subscription" | "school" | "schoolMembership" | "user">;

export const CHECKOUT_PLAN_NOT_FOUND = "Plan not found";
export const CHECKOUT_PLAN_CLOSED = "This plan is closed to new members";
export const CHECKOUT_ALREADY_MEMBER = "You already have this plan; manage it on your account page";
export const CHECKOUT_MEMBERS_ONLY = "This school's courses are for its members only; sign in with the account your organisation gave you";
export const CHECKOUT_FREE_PLAN = "This plan is free: join it from its page while signed in";
export const CHECKOUT_NOT_FOUND = "Checkout not found";
export const CHECKOUT_EXPIRED = "This checkout expired; start again from the plan's page";
export const CHECKOUT_NOT_PAID = "This checkout is not paid yet";

/** A purchase lasts this long from start to payment (Stripe's default for Checkout Sessions). */
export const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

/** A plan that takes new members: published and, for a fixed-date plan, not over. */
export function isPlanOpen(plan: Pick<MembershipPlan, "status" | "planType" | "fixedEndAt">, now: Date): boolean {
  if (plan.status !== "published") return false;
  return !(plan.planType === "fixed_date" && plan.fixedEndAt !== null && plan.fixedEndAt <= now);
}

/** The free days before the first charge: only recurring plans have a trial. */
export const trialDaysOf = (plan: Pick<MembershipPlan, "planType" | "trialDays">) => (plan.planType === "recurring" && plan.trialDays ? plan.trialDays : null);

/** The periods of a subscription bought now (the same rules as createSubscription's). */
export function checkoutPeriods(plan: MembershipPlan, now: Date, trialDays: number | null) {
  switch (plan.planType) {
    case "recurring": {
      const end = trialDays ? addInterval(now, "day", trialDays) : addInterval(now, plan.interval ?? "month", plan.intervalCount);
      return { startAt: now, currentPeriodStart: now, currentPeriodEnd: end, endAt: null, nextChargeDate: end };
    }
    case "fixed_date":
    case "specific_length": {
      const end = plan.planType === "fixed_date" ? plan.fixedEndAt! : addInterval(now, plan.lengthInterval ?? "day", plan.lengthCount ?? 0);
      return { startAt: now, currentPeriodStart: now, currentPeriodEnd: end, endAt: end, nextChargeDate: null };
    }
    case "lifetime":
      return { startAt: now, currentPeriodStart: now, currentPeriodEnd: null, endAt: null, nextChargeDate: null };
  }
}

/**
 * The plan a checkout may sell at this school now, or why not (first failure wins): an id that is
 * not a plan of this school (a tampered form) is "Plan not found"; draft, hidden or ended plans are
 * closed; a free plan has nothing to pay.
 */
export async function sellablePlan(tx: Db, options: { schoolId: string; planId: string; now: Date }): Promise<{ plan: MembershipPlan } | { error: string }> {
  if (!isUuid(options.planId)) return { error: CHECKOUT_PLAN_NOT_FOUND };
  const plan = await tx.membershipPlan.findFirst({ where: { id: options.planId, schoolId: options.schoolId } });
  if (!plan) return { error: CHECKOUT_PLAN_NOT_FOUND };
  if (!isPlanOpen(plan, options.now)) return { error: CHECKOUT_PLAN_CLOSED };
  if (plan.price.isZero()) return { error: CHECKOUT_FREE_PLAN };
  return { plan };
}

/** Whether this person may buy here: an enterprise-training school sells only to its members. */
export async function mayBuy(tx: Db, options: { schoolId: string; userId: string | null }): Promise<boolean> {
  const school = await tx.school.findUnique({ where: { id: options.schoolId }, select: { enterpriseTraining: true } });
  if (!school?.enterpriseTraining) return true;
  if (!options.userId) return false;
  const membership = await tx.schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: options.schoolId, userId: options.userId } }, select: { id: true } });
  return membership !== null;
}

/** Whether the user has a live subscription of the plan (ended ones by time count as ended). */
export async function hasLivePlan(tx: Db, options: { userId: string; planId: string; now: Date }): Promise<boolean> {
  const live = await tx.subscription.findFirst({
    where: {
      userId: options.userId,
      planId: options.planId,
      state: { in: [...LIVE_STATES] },
      OR: [{ endAt: null }, { endAt: { gt: options.now } }],
    },
    select: { id: true },
  });
  return live !== null;
}
