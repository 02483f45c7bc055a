// What a checkout may sell and to whom: the item (a membership plan, a course or a digital download)
// as the content holds it now, the school's gate and the one-per-member rules (a live subscription of
// the plan, an enrollment in the course, access to the download), shared by startCheckout,
// completeCheckout and the storefront's review pages.
import { isUuid } from "../core/ids";
import type { CheckoutSession, DigitalDownload, Course, Prisma } from "../db/generated/client";
import type { MembershipPlan } from "../db/generated/client";
import { LIVE_STATES } from "../membership/states";
import { addInterval } from "../membership/time";

type Db = Pick<Prisma.TransactionClient, "membershipPlan" | "subscription" | "school" | "schoolMembership" | "user" | "course" | "digitalDownload" | "enrollment" | "downloadAccess">;

export const CHECKOUT_PLAN_NOT_FOUND = "Plan not found";
export const CHECKOUT_PLAN_CLOSED = "This plan is closed to new members";
export const CHECKOUT_ALREADY_MEMBER = "You already have this plan; manage it on your account page";
export const CHECKOUT_MEMBERS_ONLY = "This school's courses are for its members only; sign in with the account your organisation gave you";
export const CHECKOUT_FREE_PLAN = "This plan is free: join it from its page while signed in";
export const CHECKOUT_NOT_FOUND = "Checkout not found";
export const CHECKOUT_EXPIRED = "This checkout expired; start again from the page of what you were buying";
export const CHECKOUT_NOT_PAID = "This checkout is not paid yet";
export const CHECKOUT_COURSE_NOT_FOUND = "Course not found";
export const CHECKOUT_COURSE_CLOSED = "This course is not open for enrollment";
export const CHECKOUT_COURSE_WITH_PLAN = "This course comes with a membership plan and is not sold on its own";
export const CHECKOUT_FREE_COURSE = "This course is free: enroll from its page while signed in";
export const CHECKOUT_ALREADY_ENROLLED = "You are already enrolled in this course; find it on your account page";
export const CHECKOUT_DOWNLOAD_NOT_FOUND = "Download not found";
export const CHECKOUT_DOWNLOAD_CLOSED = "This download is not available";
export const CHECKOUT_FREE_DOWNLOAD = "This download is free: get it from its page while signed in";
export const CHECKOUT_ALREADY_OWNED = "You already have this download; find it on your account page";
export const CHECKOUT_ONE_ITEM = "Name one item to buy: a plan, a course or a download";

/** What a checkout sells: a plan (a subscription) or, once, a course (an enrollment) or a download (its access). */
export type CheckoutItemKind = "plan" | "course" | "download";
export interface CheckoutItemRef {
  kind: CheckoutItemKind;
  id: string;
}

/** One sellable thing as the checkout needs it, whatever its kind. */
export interface CheckoutItem {
  kind: CheckoutItemKind;
  id: string;
  slug: string;
  name: string;
  /** null: a course without a price of its own (it comes with a plan). */
  price: Prisma.Decimal | null;
  currency: string | null;
  /** The plan itself (terms, trial, periods); null for a course or a download. */
  plan: MembershipPlan | null;
  /** On the storefront (draft and hidden items are not). */
  published: boolean;
  /** Published, and for a fixed-date plan not over. */
  open: boolean;
}

/** The words each kind's refusals use (first failure wins, in this order). */
const MESSAGES: Record<CheckoutItemKind, { notFound: string; closed: string; free: string; owned: string }> = {
  plan: { notFound: CHECKOUT_PLAN_NOT_FOUND, closed: CHECKOUT_PLAN_CLOSED, free: CHECKOUT_FREE_PLAN, owned: CHECKOUT_ALREADY_MEMBER },
  course: { notFound: CHECKOUT_COURSE_NOT_FOUND, closed: CHECKOUT_COURSE_CLOSED, free: CHECKOUT_FREE_COURSE, owned: CHECKOUT_ALREADY_ENROLLED },
  download: { notFound: CHECKOUT_DOWNLOAD_NOT_FOUND, closed: CHECKOUT_DOWNLOAD_CLOSED, free: CHECKOUT_FREE_DOWNLOAD, owned: CHECKOUT_ALREADY_OWNED },
};
export const checkoutMessages = (kind: CheckoutItemKind) => MESSAGES[kind];

export const planItem = (plan: MembershipPlan, now: Date): CheckoutItem => ({
  kind: "plan",
  id: plan.id,
  slug: plan.slug,
  name: plan.name,
  price: plan.price,
  currency: plan.currency,
  plan,
  published: plan.status === "published",
  open: isPlanOpen(plan, now),
});
export const courseItem = (c: Course): CheckoutItem => ({
  kind: "course",
  id: c.id,
  slug: c.slug,
  name: c.title,
  price: c.price !== null && c.currency ? c.price : null,
  currency: c.price !== null ? c.currency : null,
  plan: null,
  published: c.status === "published",
  open: c.status === "published",
});
export const downloadItem = (d: DigitalDownload): CheckoutItem => ({
  kind: "download",
  id: d.id,
  slug: d.slug,
  name: d.title,
  price: d.price,
  currency: d.currency,
  plan: null,
  published: d.status === "published",
  open: d.status === "published",
});

/** The item a checkout row bought (its one non-null item column). */
export function checkoutItemRef(checkout: Pick<CheckoutSession, "planId" | "courseId" | "downloadId">): CheckoutItemRef {
  if (checkout.courseId) return { kind: "course", id: checkout.courseId };
  if (checkout.downloadId) return { kind: "download", id: checkout.downloadId };
  return { kind: "plan", id: checkout.planId! };
}

/** The school's item of that kind and id, in any status, or null (also for a malformed id). */
export async function findCheckoutItem(tx: Db, options: { schoolId: string; ref: CheckoutItemRef; now: Date }): Promise<CheckoutItem | null> {
  const { schoolId, ref, now } = options;
  if (!isUuid(ref.id)) return null;
  const where = { id: ref.id, schoolId };
  switch (ref.kind) {
    case "plan": {
      const plan = await tx.membershipPlan.findFirst({ where });
      return plan ? planItem(plan, now) : null;
    }
    case "course": {
      const course = await tx.course.findFirst({ where });
      return course ? courseItem(course) : null;
    }
    case "download": {
      const download = await tx.digitalDownload.findFirst({ where });
      return download ? downloadItem(download) : null;
    }
  }
}

/** A free item (price 0) is taken at once by a signed-in member, never through a provider. */
export const isFreeItem = (item: Pick<CheckoutItem, "price">) => item.price !== null && item.price.isZero();

/**
 * Whether a checkout may sell the item (as read now: null, no such item of the school), or why not
 * (first failure wins): an id that is
 * not an item of this school (a tampered form) is "… not found"; draft, hidden or ended items are
 * closed; a course without a price of its own comes with a plan; a free item has nothing to pay.
 */
export function sellable(item: CheckoutItem | null, kind: CheckoutItemKind): { item: CheckoutItem } | { error: string } {
  const words = MESSAGES[kind];
  if (!item) return { error: words.notFound };
  if (!item.open) return { error: words.closed };
  if (item.price === null) return { error: CHECKOUT_COURSE_WITH_PLAN };
  if (item.price.isZero()) return { error: words.free };
  return { item };
}

/** Whether the user already has the item: a live subscription of the plan, an enrollment in the course, the download's access. */
export async function ownsItem(tx: Db, options: { userId: string; item: Pick<CheckoutItem, "kind" | "id">; now: Date }): Promise<boolean> {
  const { userId, item, now } = options;
  switch (item.kind) {
    case "plan":
      return hasLivePlan(tx, { userId, planId: item.id, now });
    case "course":
      return (await tx.enrollment.findUnique({ where: { courseId_userId: { courseId: item.id, userId } }, select: { id: true } })) !== null;
    case "download":
      return (await tx.downloadAccess.findUnique({ where: { downloadId_userId: { downloadId: item.id, userId } }, select: { id: true } })) !== null;
  }
}

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
