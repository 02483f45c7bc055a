// What the account pages show, each read keyed by the member's own user id and the host's school
// (never by an id from the request alone: someone else's id finds nothing).
import { listLiveSessions } from "../auth/member-sessions";
import { isUuid } from "../core/ids";
import { db } from "../db/client";
import { listMemberEnrollments } from "../membership/list-member-enrollments";
import { listMemberSubscriptions } from "../membership/list-member-subscriptions";
import { providerFor } from "../billing/provider-for";
import { TEST_CARDS } from "../billing/test-provider";
import { isCancellable, isCanceling, isLive } from "../membership/states";
import { listMemberGrants } from "../oauth/member-grants/list-member-grants";
import { parseScope, SCOPE_DESCRIPTIONS } from "../oauth/scopes";
import { deviceHint } from "./device";
import { downloadFilePath } from "./download-file";

export interface AccountMember {
  schoolId: string;
  userId: string;
}

export async function memberProfile(m: AccountMember) {
  return db().user.findUniqueOrThrow({ where: { id: m.userId }, select: { name: true, email: true } });
}

/** Each subscription with what the page offers for it (the membership rules decide, in states.ts). */
export async function memberSubscriptions(m: AccountMember & { now: Date }) {
  const subs = await listMemberSubscriptions({ schoolId: m.schoolId, userId: m.userId, now: m.now });
  // The plans a member may move to (changeSubscriptionPlan with openOnly): published, recurring.
  const open = subs.some((s) => s.plan.planType === "recurring")
    ? await db().membershipPlan.findMany({ where: { schoolId: m.schoolId, status: "published", planType: "recurring" }, orderBy: [{ position: "asc" }, { name: "asc" }] })
    : [];
  const names = new Map(open.map((p) => [p.id, p.name]));
  return Promise.all(subs.map(async (s) => {
    const changeable = s.plan.planType === "recurring" && (s.state === "active" || s.state === "trialing") && s.pausedAt === null && !isCanceling(s);
    const held = new Set(subs.filter((o) => o.id !== s.id && isLive(o.state)).map((o) => o.planId));
    const planChoices = changeable
      ? open
          .filter((p) => p.interval === s.plan.interval && p.intervalCount === s.plan.intervalCount && p.currency === s.plan.currency && !held.has(p.id))
          .filter((p) => p.id !== s.planId || s.scheduledPlanId !== null)
          .map((p) => ({ id: p.id, label: `${p.name}, ${p.price.toFixed(2)} ${p.currency}${p.id === s.planId ? " (keep)" : ""}` }))
      : [];
    return {
    id: s.id,
    planName: s.plan.name,
    planType: s.plan.planType,
    state: s.state,
    canceling: isCanceling(s),
    // A paused membership grants no access whatever its state (pauseSubscription).
    paused: s.pausedAt !== null,
    currentPeriodStart: s.currentPeriodStart,
    currentPeriodEnd: s.currentPeriodEnd,
    endAt: s.endAt,
    cancelAt: s.cancelAt,
    nextChargeDate: s.nextChargeDate,
    price: s.plan.price.toFixed(2),
    currency: s.plan.currency,
    canCancel: isCancellable(s) && !isCanceling(s),
    canKeep: isCanceling(s) && isLive(s.state),
    canPause: s.pausedAt === null && s.plan.planType !== "lifetime" && (s.state === "active" || s.state === "trialing") && !isCanceling(s),
    canResume: s.pausedAt !== null && isLive(s.state),
    scheduledPlanName: s.scheduledPlanId ? (names.get(s.scheduledPlanId) ?? "another plan") : null,
    planChoices,
    // updatePaymentMethod's rule; the form says the last decline while past_due.
    canUpdatePaymentMethod: s.collectionMethod === "charge_automatically" && ["active", "trialing", "past_due"].includes(s.state),
    lastDecline: s.state === "past_due" ? await lastDecline(s.id) : null,
    };
  }));
}

const lastDecline = async (subscriptionId: string) =>
  (await db().payment.findFirst({ where: { subscriptionId, state: "failed" }, orderBy: [{ failedAt: "desc" }, { attempt: "desc" }], select: { failureMessage: true } }))
    ?.failureMessage ?? null;

/** Test mode (no live provider): the test cards the payment method form accepts, and what each does. */
export async function testCardsOf(schoolId: string): Promise<{ number: string; outcome: string }[] | null> {
  if ((await providerFor({ schoolId })).name !== "test") return null;
  return TEST_CARDS.map((c) => ({
    number: c.number,
    outcome: !c.onSession && !c.offSession ? "pays" : c.onSession ? `declined: ${c.onSession.message}` : "pays now, declined at later renewals",
  }));
}

const paymentSelect = {
  id: true,
  amount: true,
  currency: true,
  state: true,
  paidAt: true,
  createdAt: true,
  description: true,
  billingReason: true,
  subscription: { select: { id: true, plan: { select: { name: true } } } },
} as const;

/** A subscription's payments and the member's one-time purchases (a course, a download). */
const ownPayments = (m: AccountMember) => ({ schoolId: m.schoolId, OR: [{ subscription: { userId: m.userId } }, { userId: m.userId }] });

/** What a payment paid for, as the account pages name it: the plan, or the course or download bought once. */
export const paymentFor = (p: { description: string | null; subscription: { plan: { name: string } } | null }) => p.subscription?.plan.name ?? p.description ?? "";

/** The member's payments at this school, newest first. */
export async function memberPayments(m: AccountMember) {
  return db().payment.findMany({
    where: ownPayments(m),
    select: paymentSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** One of the member's payments, or null (unknown id, or someone else's). */
export async function memberPayment(m: AccountMember & { id: string }) {
  if (!isUuid(m.id)) return null;
  return db().payment.findFirst({ where: { id: m.id, ...ownPayments(m) }, select: paymentSelect });
}

export async function memberCourses(m: AccountMember) {
  const rows = await listMemberEnrollments({ schoolId: m.schoolId, userId: m.userId });
  return rows.map((e) => ({ id: e.id, title: e.course.title, slug: e.course.slug, published: e.course.status === "published", enrolledAt: e.createdAt }));
}

/** The digital downloads the member bought or took free here, oldest first. */
export async function memberDownloads(m: AccountMember) {
  const rows = await db().downloadAccess.findMany({
    where: { schoolId: m.schoolId, userId: m.userId },
    include: { download: { select: { id: true, title: true, slug: true, status: true, fileName: true, fileSizeBytes: true, fileSha256: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((a) => ({
    id: a.id,
    title: a.download.title,
    slug: a.download.slug,
    fileName: a.download.fileName,
    fileSizeBytes: a.download.fileSizeBytes,
    // Where the member downloads its file (lib/account/download-file.ts); null: it has none stored.
    filePath: a.download.fileSha256 ? downloadFilePath(a.download.id) : null,
    published: a.download.status === "published",
    since: a.createdAt,
  }));
}

/** Connected apps with their scopes in plain words. */
export async function memberApps(m: AccountMember & { now: Date }) {
  const grants = await listMemberGrants({ db: db(), schoolId: m.schoolId, userId: m.userId, now: m.now });
  return grants.map((g) => ({
    ...g,
    scopes: parseScope(g.scope).map((s) => (Object.hasOwn(SCOPE_DESCRIPTIONS, s) ? SCOPE_DESCRIPTIONS[s]! : s)),
  }));
}

export async function memberSessions(m: { userId: string; origin: string; currentSessionId: string; now: Date }) {
  const rows = await listLiveSessions(m);
  return rows.map((r) => ({ ...r, device: deviceHint(r.userAgent) }));
}
