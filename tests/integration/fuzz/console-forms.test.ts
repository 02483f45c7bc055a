// The staff console's forms under a signed-in manager (seeded, fast-check): any member page action
// (change-plan among them, with this school's plans, a draft, another currency, another school's),
// any member id (this school's, another school's, garbage), any fields, any form token, any Origin.
// Every answer is a redirect, 404 or 403 (never a throw: no 5xx), a notice never leaks internals,
// nothing of the other school changes, and a refused request (cross-site, no token) changes nothing.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import { MEMBER_ACTIONS } from "@/lib/console/member-actions";
import { performMemberAction } from "@/lib/console/perform";
import { STEP_UP_FIELD } from "@/lib/console/step-up";
import { db } from "@/lib/db/client";
import { createSubscription } from "@/lib/membership/create-subscription";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { CONSOLE_FUZZ_RUNS as RUNS, CONSOLE_FUZZ_SEED as SEED, CONSOLE_HOST as HOST, INTERNALS_LEAK as LEAK, consoleForm, consoleHeaders, expectConsoleAnswer, hostileText, staffSessionId } from "../../helpers/console-fuzz";
import { signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";
import { CHANGE_PLANS, ensureChangePlans } from "../billing/helpers";

const app = appForSuite({ host: HOST });
let cookie = "";
let sessionId = "";
let acmeSub = "";
let ownSub = "";

// The other school's rows: a manager of this school must never change any of them.
async function otherSchool() {
  const d = db();
  const [subs, memberships, enrollments, payments] = await Promise.all([
    d.subscription.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, select: { id: true, state: true, cancelAt: true, pausedAt: true, currentPeriodEnd: true, planId: true, scheduledPlanId: true }, orderBy: { id: "asc" } }),
    d.schoolMembership.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, select: { id: true, disabledAt: true, roles: true }, orderBy: { id: "asc" } }),
    d.enrollment.count({ where: { schoolId: DEMO_IDS.acmeSchool } }),
    d.payment.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, select: { id: true, refundedAmount: true }, orderBy: { id: "asc" } }),
  ]);
  return { subs, memberships, enrollments, payments: payments.map((p) => ({ ...p, refundedAmount: p.refundedAmount.toFixed(2) })) };
}

async function everything() {
  const d = db();
  const [subs, memberships, enrollments, events] = await Promise.all([
    d.subscription.findMany({ select: { id: true, state: true, cancelAt: true, pausedAt: true, currentPeriodEnd: true, planId: true, scheduledPlanId: true }, orderBy: { id: "asc" } }),
    d.schoolMembership.findMany({ select: { id: true, disabledAt: true }, orderBy: { id: "asc" } }),
    d.enrollment.count(),
    d.webhookEvent.count(),
  ]);
  return { subs, memberships, enrollments, events };
}

beforeAll(async () => {
  // Plans a monthly subscription can move to (change-plan), a draft and another currency among them.
  await ensureChangePlans(DEMO_IDS.school);
  cookie = await signIn(app, "manager@schoolhouse.test");
  sessionId = await staffSessionId(cookie);
  acmeSub = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { email: "employee@schoolhouse.test", planId: DEMO_IDS.plans.acmeAnnual }, now: new Date() })).record!.id;
  ownSub = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "student@schoolhouse.test", planId: DEMO_IDS.plans.monthly }, now: new Date() })).record!.id;
});

const text = hostileText(["-1", "1e309", "0.001", "NaN"]);
const id = () => fc.oneof(text, fc.constantFrom(DEMO_IDS.users.acmeEmployee, DEMO_IDS.users.student, DEMO_IDS.users.owner, DEMO_IDS.users.manager));

describe("console forms, signed in as a manager (seeded fuzz)", () => {
  it(`${RUNS} posts: never a throw, no leak, the other school untouched`, async () => {
    const before = await otherSchool();
    const request = fc.record({
      action: fc.oneof(fc.constantFrom(...Object.keys(MEMBER_ACTIONS)), text),
      memberId: id(),
      fields: fc.record(
        {
          subscription: fc.oneof(text, fc.constantFrom(acmeSub, ownSub)),
          payment: text,
          plan: fc.oneof(text, fc.constantFrom(DEMO_IDS.plans.acmeAnnual, DEMO_IDS.plans.monthly, ...Object.values(CHANGE_PLANS))),
          course: text,
          currentPeriodEnd: text,
          expireAt: text,
          amount: text,
          [STEP_UP_FIELD]: text,
        },
        { requiredKeys: [] },
      ),
      token: fc.oneof(fc.uuid(), text),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const answer = await performMemberAction({ headers: consoleHeaders(cookie), memberId: r.memberId, action: r.action, form: consoleForm(r.token, r.fields), now: now() });
        await expectConsoleAnswer(answer, { sessionId, pathPrefix: "/manage/members/", leak: LEAK });
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(await otherSchool()).toEqual(before);
  }, 600_000);

  it("a refused post (cross-site, null Origin from another site, no token, signed out) changes nothing", async () => {
    const before = await everything();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(MEMBER_ACTIONS)), fc.constantFrom("cross", "nullCross", "token", "anonymous"), async (action, how) => {
        const form = consoleForm(how === "token" ? null : crypto.randomUUID(), { subscription: ownSub, course: DEMO_IDS.courses.pythonForDataAnalysis, plan: CHANGE_PLANS.plus });
        const headers = consoleHeaders(how === "anonymous" ? "" : cookie, how === "cross" ? "https://evil.example" : how === "nullCross" ? "null" : undefined);
        // nullCross: a sandboxed frame of another site posts with `Origin: null`.
        if (how === "nullCross") headers.set("sec-fetch-site", "cross-site");
        const answer = await performMemberAction({ headers, memberId: DEMO_IDS.users.student, action, form, now: now() });
        expect(answer.kind).toBe("redirect");
      }),
      { numRuns: 40, seed: SEED },
    );
    expect(await everything()).toEqual(before);
  }, 300_000);
});
