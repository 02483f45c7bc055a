import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountAccess } from "@/lib/account/access";
import { now, setNow } from "@/lib/clock";
import { consoleAccess, consolePageGate } from "@/lib/console/access";
import { courseEnrollments } from "@/lib/console/courses";
import { consoleNotice, FORM_MESSAGES, FORM_TOKEN_FIELD, newFormToken } from "@/lib/console/form-guard";
import { memberView } from "@/lib/console/members";
import { schoolOverview } from "@/lib/console/overview";
import { performMemberAction, type ActionAnswer } from "@/lib/console/perform";
import { STEP_UP_FIELD, STEP_UP_MAX_AGE_MS, STEP_UP_MESSAGES } from "@/lib/console/step-up";
import { db } from "@/lib/db/client";
import { createSubscription } from "@/lib/membership/create-subscription";
import { NOT_CANCELING } from "@/lib/membership/undo-cancellation";
import { SUBSCRIPTION_NOT_FOUND } from "@/lib/membership/change-subscription";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";
import { CARDS, CHANGE_PLANS, ensureChangePlans } from "../billing/helpers";
import { CHANGE_PAUSED, PLAN_CLOSED, PLAN_INCOMPATIBLE, PLAN_NOT_FOUND, SAME_PLAN } from "@/lib/billing/change-subscription-plan";

// The staff console's access rules and actions below Next (lib/console): who may open what, the
// same-origin and once-per-form guards, step-up, each action through its domain verb (messages,
// events), disabling a member, the overview's figures and a teacher's courses.
const HOST = "demo.localhost";
const ORIGIN = `http://${HOST}`;
const app = appForSuite({ host: HOST });
afterEach(() => setNow(null));

const cookies: Record<string, string> = {};
let monthly: { id: string; price: number };
let studentSub = "";

const headersOf = (cookie: string, extra: Record<string, string> = {}) => new Headers({ host: HOST, origin: ORIGIN, ...(cookie ? { cookie } : {}), ...extra });

function form(fields: Record<string, string>, token: string = newFormToken()) {
  const f = new FormData();
  f.set(FORM_TOKEN_FIELD, token);
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

async function act(who: string, memberId: string, action: string, f: FormData, extra: Record<string, string> = {}): Promise<ActionAnswer> {
  return performMemberAction({ headers: headersOf(cookies[who] ?? "", extra), memberId, action, form: f, now: now() });
}

async function noticeOf(who: string, answer: ActionAnswer) {
  expect(answer.kind).toBe("redirect");
  const location = answer.kind === "redirect" ? answer.location : "";
  const token = new URL(location, ORIGIN).searchParams.get("notice") ?? undefined;
  const access = await consoleAccess({ headers: headersOf(cookies[who]!) });
  if (access.kind !== "staff") throw new Error("not staff");
  return consoleNotice({ sessionId: access.session.sessionId, token, now: now() });
}

const events = (subjectId: string) => db().webhookEvent.findMany({ where: { subjectId }, select: { type: true } });

beforeAll(async () => {
  for (const who of ["owner", "manager", "teacher", "student", "multi", "employee"]) cookies[who] = await signIn(app, `${who}@schoolhouse.test`);
  const plan = await db().membershipPlan.findUniqueOrThrow({ where: { id: DEMO_IDS.plans.monthly } });
  monthly = { id: plan.id, price: Number(plan.price) / Math.max(plan.intervalCount, 1) };
  studentSub = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "student@schoolhouse.test", planId: monthly.id }, now: new Date() })).record!.id;
});

describe("who may open the console", () => {
  it("knows visitors, non-staff, teachers and staff apart", async () => {
    expect((await consoleAccess({ headers: headersOf("") })).kind).toBe("anonymous");
    expect((await consoleAccess({ headers: headersOf(cookies.student!) })).kind).toBe("forbidden");
    expect((await consoleAccess({ headers: headersOf(cookies.employee!) })).kind).toBe("forbidden");
    const teacher = await consoleAccess({ headers: headersOf(cookies.teacher!) });
    expect(teacher.kind === "staff" && [...teacher.permissions]).toEqual(["courses:read_own"]);
    const manager = await consoleAccess({ headers: headersOf(cookies.manager!) });
    expect(manager.kind === "staff" && manager.permissions.has("money:refund")).toBe(true);
  });

  it("the proxy's gate: login for a visitor (401 for a post), 403 for a role without the page, nothing for staff", async () => {
    const gate = (who: string, path: string, method = "GET", extra: Record<string, string> = {}) =>
      consolePageGate({ url: `${ORIGIN}${path}`, method, headers: headersOf(cookies[who] ?? "", extra) }, path, path);
    // A post from another site: 403 saying so, before the sign-in or the role is looked at (Next's
    // own action check would answer it with a 500).
    for (const who of ["manager", "nobody"]) {
      const cross = await gate(who, "/manage/members", "POST", { origin: "https://evil.example" });
      expect(cross?.status).toBe(403);
      expect(await cross?.text()).toContain(FORM_MESSAGES.crossSite);
    }
    expect((await gate("manager", "/manage/keys", "POST", { origin: "null", "sec-fetch-site": "cross-site" }))?.status).toBe(403);
    // A form posted without JavaScript from a page under a no-referrer policy: `Origin: null`, same-origin.
    expect(await gate("manager", "/manage/members", "POST", { origin: "null", "sec-fetch-site": "same-origin" })).toBeNull();
    expect(await gate("manager", "/manage/members", "POST")).toBeNull();
    const visitor = await gate("nobody", "/manage/members?q=a");
    expect(visitor?.status).toBe(307);
    expect(visitor?.headers.get("location")).toBe(`${ORIGIN}/login?callbackUrl=%2Fmanage%2Fmembers%3Fq%3Da`);
    expect((await gate("nobody", "/manage/members", "POST"))?.status).toBe(401);
    expect((await gate("student", "/manage"))?.status).toBe(403);
    expect((await gate("teacher", "/manage/members"))?.status).toBe(403);
    expect((await gate("teacher", "/manage/members/x", "POST"))?.status).toBe(403);
    expect(await gate("teacher", "/manage/courses")).toBeNull();
    expect(await gate("teacher", "/manage")).toBeNull();
    expect(await gate("manager", "/manage/members")).toBeNull();
  });

  it("a teacher sees the enrollments of the courses they teach only; another school's course is not found", async () => {
    const teacher = await consoleAccess({ headers: headersOf(cookies.teacher!) });
    if (teacher.kind !== "staff") throw new Error("teacher is staff");
    expect((await courseEnrollments({ staff: teacher, courseId: DEMO_IDS.courses.introToSql, after: null })).kind).toBe("ok");
    const other = await db().course.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school, lecturers: { none: { lecturer: { userId: DEMO_IDS.users.teacher } } } } });
    expect((await courseEnrollments({ staff: teacher, courseId: other.id, after: null })).kind).toBe("forbidden");
    const acme = await db().course.findFirst({ where: { schoolId: DEMO_IDS.acmeSchool } });
    if (acme) expect((await courseEnrollments({ staff: teacher, courseId: acme.id, after: null })).kind).toBe("not_found");
  });
});

describe("member actions", () => {
  it("refuses a student and a teacher (403) and changes nothing", async () => {
    for (const who of ["student", "teacher"]) {
      expect(await act(who, DEMO_IDS.users.student, "cancel-now", form({ subscription: studentSub }))).toEqual({ kind: "forbidden" });
    }
    expect((await db().subscription.findUniqueOrThrow({ where: { id: studentSub } })).state).toBe("active");
  });

  it("answers 404 for a member of another school and an unknown action", async () => {
    expect(await act("manager", DEMO_IDS.users.acmeEmployee, "pause", form({ subscription: studentSub }))).toEqual({ kind: "not_found" });
    expect(await act("manager", DEMO_IDS.users.student, "drop-tables", form({}))).toEqual({ kind: "not_found" });
    expect(await act("manager", "not-a-uuid", "pause", form({}))).toEqual({ kind: "not_found" });
  });

  it("refuses a cross-site post and a post without a form token, changing nothing", async () => {
    const cross = await act("manager", DEMO_IDS.users.student, "cancel-now", form({ subscription: studentSub }), { origin: "https://evil.example" });
    expect(cross).toEqual({ kind: "redirect", location: `/manage/members/${DEMO_IDS.users.student}?refused=crossSite` });
    const noToken = new FormData();
    noToken.set("subscription", studentSub);
    expect(await act("manager", DEMO_IDS.users.student, "cancel-now", noToken)).toEqual({ kind: "redirect", location: `/manage/members/${DEMO_IDS.users.student}?refused=expired` });
    expect((await db().subscription.findUniqueOrThrow({ where: { id: studentSub } })).state).toBe("active");
    expect(FORM_MESSAGES.crossSite).toMatch(/Nothing was changed/);
  });

  it("cancels at period end through cancelSubscription, once under a double submit, and undoes it", async () => {
    const token = newFormToken();
    const first = await act("manager", DEMO_IDS.users.student, "cancel-at-period-end", form({ subscription: studentSub }, token));
    const second = await act("manager", DEMO_IDS.users.student, "cancel-at-period-end", form({ subscription: studentSub }, token));
    expect(second).toEqual(first);
    expect(await noticeOf("manager", first)).toEqual({ kind: "done", text: "The subscription will end at the end of the current period." });
    expect((await events(studentSub)).filter((e) => e.type === "subscription.canceling")).toHaveLength(1);
    const count = (await events(studentSub)).length;
    // The same token for another change is refused.
    expect(await act("manager", DEMO_IDS.users.student, "cancel-now", form({ subscription: studentSub }, token))).toEqual({ kind: "redirect", location: `/manage/members/${DEMO_IDS.users.student}?refused=reused` });
    expect((await events(studentSub)).length).toBe(count);
    const undo = await act("manager", DEMO_IDS.users.student, "undo-cancellation", form({ subscription: studentSub }));
    expect((await noticeOf("manager", undo))?.kind).toBe("done");
    const again = await act("manager", DEMO_IDS.users.student, "undo-cancellation", form({ subscription: studentSub }));
    expect((await noticeOf("manager", again))?.text).toContain(NOT_CANCELING);
  });

  it("says the verb's not-found for a subscription of another member", async () => {
    const other = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "multi@schoolhouse.test", planId: monthly.id }, now: new Date() })).record!.id;
    const answer = await act("manager", DEMO_IDS.users.student, "pause", form({ subscription: other }));
    expect((await noticeOf("manager", answer))?.text).toContain(SUBSCRIPTION_NOT_FOUND);
    expect((await db().subscription.findUniqueOrThrow({ where: { id: other } })).pausedAt).toBeNull();
  });

  it("moves the period, pauses and resumes, enrolls once", async () => {
    const end = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.student, "update-period", form({ subscription: studentSub, currentPeriodEnd: end }))))?.kind).toBe("done");
    expect((await db().subscription.findUniqueOrThrow({ where: { id: studentSub } })).currentPeriodEnd?.toISOString().slice(0, 10)).toBe(end);
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.student, "update-period", form({ subscription: studentSub, currentPeriodEnd: "2026-02-31" }))))?.kind).toBe("error");
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.student, "pause", form({ subscription: studentSub }))))?.kind).toBe("done");
    expect((await db().subscription.findUniqueOrThrow({ where: { id: studentSub } })).pausedAt).not.toBeNull();
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.student, "resume", form({ subscription: studentSub }))))?.kind).toBe("done");
    const course = DEMO_IDS.courses.pythonForDataAnalysis;
    for (let i = 0; i < 2; i++) expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.student, "enroll", form({ course }))))?.kind).toBe("done");
    expect(await db().enrollment.count({ where: { courseId: course, userId: DEMO_IDS.users.student } })).toBe(1);
  });

  it("asks for the password again before a refund once the sign-in is 10 minutes old", async () => {
    const payment = await db().payment.create({
      data: { schoolId: DEMO_IDS.school, subscriptionId: studentSub, amount: "29.00", currency: "USD", state: "succeeded", paidAt: new Date(), provider: "external" },
    });
    setNow(new Date(Date.now() + STEP_UP_MAX_AGE_MS + 60_000));
    const refund = (fields: Record<string, string>) => act("manager", DEMO_IDS.users.student, "refund", form({ payment: payment.id, ...fields }));
    expect((await noticeOf("manager", await refund({})))?.text).toBe(STEP_UP_MESSAGES.required);
    expect((await noticeOf("manager", await refund({ [STEP_UP_FIELD]: "wrong password" })))?.text).toBe(STEP_UP_MESSAGES.invalid);
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).refundedAmount.toFixed(2)).toBe("0.00");
    expect((await noticeOf("manager", await refund({ amount: "5.00", [STEP_UP_FIELD]: "schoolhouse-demo" })))?.kind).toBe("done");
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).refundedAmount.toFixed(2)).toBe("5.00");
    // Entered just now: the next refund needs no password.
    expect((await noticeOf("manager", await refund({ amount: "1.00" })))?.kind).toBe("done");
  });

  it("disables a member: sessions end, sign-in and the account pages are refused; enabling lets them in again", async () => {
    const multiSession = await db().memberSession.count({ where: { userId: DEMO_IDS.users.multiRole, revokedAt: null } });
    expect(multiSession).toBeGreaterThan(0);
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.multiRole, "disable", form({}))))?.kind).toBe("done");
    expect((await db().schoolMembership.findUniqueOrThrow({ where: { schoolId_userId: { schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.multiRole } } })).disabledAt).not.toBeNull();
    expect((await accountAccess({ headers: headersOf(cookies.multi!) })).kind).not.toBe("member");
    await expect(signIn(app, "multi@schoolhouse.test")).rejects.toThrow(/sign-in failed/);
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.multiRole, "enable", form({}))))?.kind).toBe("done");
    cookies.multi = await signIn(app, "multi@schoolhouse.test");
    expect((await accountAccess({ headers: headersOf(cookies.multi) })).kind).toBe("member");
  });

  it("refuses disabling yourself or an owner", async () => {
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.manager, "disable", form({}))))?.kind).toBe("error");
    expect((await noticeOf("manager", await act("manager", DEMO_IDS.users.owner, "disable", form({}))))?.kind).toBe("error");
  });
});

describe("change plan (changeSubscriptionPlan, the Admin API's verb)", () => {
  let counter = 0;
  /** A new member with a monthly subscription (external collection unless a card is given). */
  async function planMember(card?: string) {
    const email = `console-plan-${++counter}-${Date.now().toString(36)}@example.com`;
    const input = { email, name: "Plan Changer", planId: DEMO_IDS.plans.monthly, ...(card ? { collectionMethod: "charge_automatically", paymentMethod: card } : {}) };
    const record = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input, now: new Date() })).record!;
    return { userId: record.userId, subscription: record.id };
  }
  const changePlan = (who: string, m: { userId: string; subscription: string }, plan: string, token?: string) =>
    act(who, m.userId, "change-plan", form({ subscription: m.subscription, plan }, token));
  const row = (id: string) => db().subscription.findUniqueOrThrow({ where: { id }, select: { planId: true, scheduledPlanId: true, pausedAt: true, state: true, updatedAt: true } });
  const audits = (id: string) => db().auditEvent.findMany({ where: { targetId: id, action: "subscription.change_plan" } });
  const school = async () => ({ school: await db().school.findUniqueOrThrow({ where: { id: DEMO_IDS.school } }) });

  beforeAll(() => ensureChangePlans(DEMO_IDS.school));

  it("offers the plans the verb takes: recurring, same interval and currency, no drafts", async () => {
    const m = await planMember();
    const view = await memberView({ staff: await school(), memberId: m.userId, now: new Date() });
    const choices = view!.subscriptions.find((s) => s.id === m.subscription)!.planChoices.map((c) => c.id);
    expect(choices).toEqual(expect.arrayContaining([CHANGE_PLANS.plus, CHANGE_PLANS.basic]));
    for (const no of [CHANGE_PLANS.draft, CHANGE_PLANS.euro, DEMO_IDS.plans.monthly, DEMO_IDS.plans.lifetime, DEMO_IDS.plans.acmeAnnual]) expect(choices).not.toContain(no);
  });

  it("an upgrade takes effect now, once under a double submit, with its event and the manager in the audit log", async () => {
    const m = await planMember();
    const token = newFormToken();
    const first = await changePlan("manager", m, CHANGE_PLANS.plus, token);
    const second = await changePlan("manager", m, CHANGE_PLANS.plus, token);
    expect(second).toEqual(first);
    expect(await noticeOf("manager", first)).toEqual({ kind: "done", text: "The subscription is now on Monthly Plus." });
    expect((await row(m.subscription)).planId).toBe(CHANGE_PLANS.plus);
    expect((await events(m.subscription)).filter((e) => e.type === "subscription.plan_changed")).toHaveLength(1);
    const rows = await audits(m.subscription);
    expect(rows).toHaveLength(1);
    const manager = await consoleAccess({ headers: headersOf(cookies.manager!) });
    if (manager.kind !== "staff") throw new Error("the manager is staff");
    expect(rows[0]).toMatchObject({ actorType: "member", actorId: DEMO_IDS.users.manager, actorLabel: "manager@schoolhouse.test", credentialId: manager.session.sessionId });
    // The same token for another plan is refused, and changes nothing.
    expect(await changePlan("manager", m, CHANGE_PLANS.basic, token)).toEqual({ kind: "redirect", location: `/manage/members/${m.userId}?refused=reused` });
    expect(await row(m.subscription)).toMatchObject({ planId: CHANGE_PLANS.plus, scheduledPlanId: null });
  });

  it("a downgrade waits for the period end; the current plan again withdraws it", async () => {
    const m = await planMember();
    await changePlan("manager", m, CHANGE_PLANS.plus);
    const scheduled = await changePlan("manager", m, CHANGE_PLANS.basic);
    expect(await noticeOf("manager", scheduled)).toEqual({ kind: "done", text: "The subscription moves to Monthly Basic at the end of the current period; it stays on Monthly Plus until then." });
    expect(await row(m.subscription)).toMatchObject({ planId: CHANGE_PLANS.plus, scheduledPlanId: CHANGE_PLANS.basic });
    const view = await memberView({ staff: await school(), memberId: m.userId, now: new Date() });
    const sub = view!.subscriptions.find((s) => s.id === m.subscription)!;
    expect(sub.scheduledPlanName).toBe("Monthly Basic");
    expect(sub.planChoices.find((c) => c.id === CHANGE_PLANS.plus)?.label).toMatch(/\(keep this plan\)$/);
    const withdrawn = await changePlan("manager", m, CHANGE_PLANS.plus);
    expect(await noticeOf("manager", withdrawn)).toEqual({ kind: "done", text: "The scheduled plan change is withdrawn: the subscription stays on Monthly Plus." });
    expect(await row(m.subscription)).toMatchObject({ planId: CHANGE_PLANS.plus, scheduledPlanId: null });
  });

  it("a card on file pays the prorated difference first; a refused card's message is the refusal, and the plan stays", async () => {
    const paying = await planMember(CARDS.visa);
    expect((await noticeOf("owner", await changePlan("owner", paying, CHANGE_PLANS.plus)))?.kind).toBe("done");
    expect((await row(paying.subscription)).planId).toBe(CHANGE_PLANS.plus);
    expect(await db().payment.count({ where: { subscriptionId: paying.subscription, billingReason: "subscription_update", state: "succeeded" } })).toBe(1);
    const failing = await planMember(CARDS.failsLater);
    expect(await noticeOf("manager", await changePlan("manager", failing, CHANGE_PLANS.plus))).toEqual({ kind: "error", text: "Your card was declined. Nothing was changed." });
    expect(await row(failing.subscription)).toMatchObject({ planId: DEMO_IDS.plans.monthly, scheduledPlanId: null });
    expect(await audits(failing.subscription)).toHaveLength(0);
  });

  it("refusals say the Admin API's messages and change nothing; a student and a teacher get 403", async () => {
    const m = await planMember();
    const other = await planMember();
    await act("manager", m.userId, "pause", form({ subscription: m.subscription }));
    const paused = await row(m.subscription);
    const fresh = await row(other.subscription);
    const eventsBefore = (await events(m.subscription)).length + (await events(other.subscription)).length;
    const cases: [typeof m, string, string][] = [
      [m, CHANGE_PLANS.plus, CHANGE_PAUSED],
      [other, CHANGE_PLANS.draft, PLAN_CLOSED],
      [other, CHANGE_PLANS.euro, PLAN_INCOMPATIBLE],
      [other, DEMO_IDS.plans.acmeAnnual, PLAN_NOT_FOUND],
      [other, "not-a-uuid", PLAN_NOT_FOUND],
      [other, DEMO_IDS.plans.monthly, SAME_PLAN],
      // Another member's subscription through this member's page.
      [{ userId: m.userId, subscription: other.subscription }, CHANGE_PLANS.plus, SUBSCRIPTION_NOT_FOUND],
    ];
    for (const [who, plan, message] of cases) {
      expect(await noticeOf("manager", await changePlan("manager", who, plan))).toEqual({ kind: "error", text: `${message} Nothing was changed.` });
    }
    for (const who of ["student", "teacher"]) expect(await changePlan(who, other, CHANGE_PLANS.plus)).toEqual({ kind: "forbidden" });
    expect(await row(m.subscription)).toEqual(paused);
    expect(await row(other.subscription)).toEqual(fresh);
    expect((await events(m.subscription)).length + (await events(other.subscription)).length).toBe(eventsBefore);
    expect([...(await audits(m.subscription)), ...(await audits(other.subscription))]).toHaveLength(0);
  });
});

describe("reads", () => {
  it("the member page's view is of this school only", async () => {
    const school = { school: (await db().school.findUniqueOrThrow({ where: { id: DEMO_IDS.school } })) };
    expect(await memberView({ staff: school, memberId: DEMO_IDS.users.acmeEmployee, now: new Date() })).toBeNull();
    const view = await memberView({ staff: school, memberId: DEMO_IDS.users.student, now: new Date() });
    expect(view?.subscriptions.map((s) => s.id)).toContain(studentSub);
    expect(view?.payments.length).toBeGreaterThan(0);
  });

  it("the overview counts a new monthly subscription's price in MRR and its member as active", async () => {
    const before = await schoolOverview({ schoolId: DEMO_IDS.school, now: new Date() });
    await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "console-overview@example.com", name: "Overview Test", planId: monthly.id }, now: new Date() });
    const after = await schoolOverview({ schoolId: DEMO_IDS.school, now: new Date() });
    expect(after.activeMembers).toBe(before.activeMembers + 1);
    expect(after.newThisMonth).toBe(before.newThisMonth + 1);
    const currency = (await db().membershipPlan.findUniqueOrThrow({ where: { id: monthly.id } })).currency.trim();
    const mrr = (o: typeof before) => o.mrr.find((m) => m.currency === currency)?.amount ?? 0;
    expect(mrr(after) - mrr(before)).toBeCloseTo(monthly.price, 2);
    expect(after.series.newMembers).toHaveLength(12);
    expect(after.series.mrr.at(-1)?.value).toBeCloseTo(mrr(after), 2);
  });
});
