// The staff console's forms under a signed-in manager (seeded, fast-check): any member page action
// (change-plan among them, with this school's plans, a draft, another currency, another school's),
// any member id (this school's, another school's, garbage), any fields, any form token, any Origin.
// Every answer is a redirect, 404 or 403 (never a throw: no 5xx), a notice never leaks internals,
// nothing of the other school changes, and a refused request (cross-site, no token) changes nothing.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import { consoleAccess } from "@/lib/console/access";
import { consoleNotice, FORM_TOKEN_FIELD } from "@/lib/console/form-guard";
import { MEMBER_ACTIONS } from "@/lib/console/member-actions";
import { performMemberAction } from "@/lib/console/perform";
import { STEP_UP_FIELD } from "@/lib/console/step-up";
import { db } from "@/lib/db/client";
import { createSubscription } from "@/lib/membership/create-subscription";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";
import { CHANGE_PLANS, ensureChangePlans } from "../billing/helpers";

const RUNS = Number(process.env.FUZZ_RUNS_CONSOLE ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const LEAK = [/\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+/, /node_modules/, /prisma|P20\d\d/i, /\bSELECT\b.+\bFROM\b/i];
const HOST = "demo.localhost";
const ORIGIN = `http://${HOST}`;

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
  const access = await consoleAccess({ headers: new Headers({ host: HOST, cookie }) });
  if (access.kind !== "staff") throw new Error("the manager is staff");
  sessionId = access.session.sessionId;
  acmeSub = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { email: "employee@schoolhouse.test", planId: DEMO_IDS.plans.acmeAnnual }, now: new Date() })).record!.id;
  ownSub = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "student@schoolhouse.test", planId: DEMO_IDS.plans.monthly }, now: new Date() })).record!.id;
});

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "\u0000", "x".repeat(5000), "<script>alert(1)</script>", "' OR 1=1 --", "😀", "not-a-uuid", "2026-02-31", "9999-12-31", "-1", "1e309", "0.001", "NaN"),
  fc.uuid(),
);
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
        const form = new FormData();
        form.set(FORM_TOKEN_FIELD, r.token);
        for (const [k, v] of Object.entries(r.fields)) form.set(k, v as string);
        const answer = await performMemberAction({ headers: new Headers({ host: HOST, origin: ORIGIN, cookie }), memberId: r.memberId, action: r.action, form, now: now() });
        expect(["redirect", "not_found", "forbidden"]).toContain(answer.kind);
        if (answer.kind === "redirect") {
          const url = new URL(answer.location, ORIGIN);
          expect(url.origin).toBe(ORIGIN);
          expect(url.pathname.startsWith("/manage/members/")).toBe(true);
          const notice = await consoleNotice({ sessionId, token: url.searchParams.get("notice") ?? undefined, now: now() });
          for (const pattern of LEAK) expect(notice?.text ?? "").not.toMatch(pattern);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(await otherSchool()).toEqual(before);
  }, 600_000);

  it("a refused post (cross-site, null Origin from another site, no token, signed out) changes nothing", async () => {
    const before = await everything();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(MEMBER_ACTIONS)), fc.constantFrom("cross", "nullCross", "token", "anonymous"), async (action, how) => {
        const form = new FormData();
        if (how !== "token") form.set(FORM_TOKEN_FIELD, crypto.randomUUID());
        form.set("subscription", ownSub);
        form.set("course", DEMO_IDS.courses.pythonForDataAnalysis);
        form.set("plan", CHANGE_PLANS.plus);
        // nullCross: a sandboxed frame of another site posts with `Origin: null`.
        const origin: Record<string, string> = how === "cross" ? { origin: "https://evil.example" } : how === "nullCross" ? { origin: "null", "sec-fetch-site": "cross-site" } : { origin: ORIGIN };
        const headers = new Headers({ host: HOST, ...origin, ...(how === "anonymous" ? {} : { cookie }) });
        const answer = await performMemberAction({ headers, memberId: DEMO_IDS.users.student, action, form, now: now() });
        expect(answer.kind).toBe("redirect");
      }),
      { numRuns: 40, seed: SEED },
    );
    expect(await everything()).toEqual(before);
  }, 300_000);
});
