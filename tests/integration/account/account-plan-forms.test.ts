import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { memberSubscriptions } from "@/lib/account/queries";
import { createSubscription } from "@/lib/membership/create-subscription";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { CHANGE_PLANS, ensureChangePlans } from "../billing/helpers";
import { csrf, signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// The account's pause, resume and change-plan forms (POST /api/account/<action>,
// lib/account/forms.ts): the member's own subscriptions only, the CSRF token, the Admin API's verbs
// with their events and messages, each safe to submit twice.
const app = appForSuite({ host: "demo.localhost" });
afterEach(() => setNow(null));

let cookie: string;
let token: string;
let other: string;

function post(action: string, fields: Record<string, string>, as = cookie) {
  return app.fetch(`/api/account/${action}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: as },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const location = async (action: string, fields: Record<string, string>) => (await post(action, { csrfToken: token, ...fields })).headers.get("location");
const events = async (subjectId: string) => (await db().webhookEvent.findMany({ where: { subjectId }, orderBy: { createdAt: "asc" }, select: { type: true } })).map((e) => e.type);
const subscribeStudent = async (paymentMethod: string) =>
  (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "student@schoolhouse.test", planId: DEMO_IDS.plans.monthly, collectionMethod: "charge_automatically", paymentMethod }, now: new Date() }))
    .record!.id;

beforeAll(async () => {
  await ensureChangePlans(DEMO_IDS.school);
  ({ cookie, token } = await csrf(app, await signIn(app, "student@schoolhouse.test")));
  const multi = await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "multi@schoolhouse.test", planId: DEMO_IDS.plans.monthly }, now: new Date() });
  other = multi.record!.id;
});

describe("pause and resume", () => {
  it("pauses and resumes the member's own subscription once however often submitted, with the Admin API's events", async () => {
    const id = await subscribeStudent("4242424242424242");
    expect(await location("pause", { subscription: id })).toBe("/account/memberships?done=paused");
    expect(await location("pause", { subscription: id })).toBe("/account/memberships?done=paused");
    expect((await db().subscription.findUniqueOrThrow({ where: { id } })).pausedAt).not.toBeNull();
    expect(await location("resume", { subscription: id })).toBe("/account/memberships?done=resumed");
    expect(await location("resume", { subscription: id })).toBe("/account/memberships?done=resumed");
    expect((await db().subscription.findUniqueOrThrow({ where: { id } })).pausedAt).toBeNull();
    expect(await events(id)).toEqual(["subscription.created", "subscription.activated", "subscription.paused", "subscription.resumed"]);
    await db().subscription.update({ where: { id }, data: { state: "canceled", endAt: new Date() } });
  });

  it("says the verb's own message when a rule refuses, and answers 404 for another member's subscription without a change", async () => {
    const lifetime = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "student@schoolhouse.test", planId: DEMO_IDS.plans.lifetime }, now: new Date() })).record!.id;
    expect(await location("pause", { subscription: lifetime })).toBe("/account/memberships?error=lifetime_not_pausable");
    for (const action of ["pause", "resume", "change-plan"]) {
      const res = await post(action, { csrfToken: token, subscription: other, plan: CHANGE_PLANS.plus });
      expect(res.status, action).toBe(404);
    }
    const row = await db().subscription.findUniqueOrThrow({ where: { id: other } });
    expect(row).toMatchObject({ pausedAt: null, planId: DEMO_IDS.plans.monthly });
    // Without the form's CSRF token: 403, nothing changed.
    expect((await post("pause", { csrfToken: "forged", subscription: lifetime })).status).toBe(403);
  });
});

describe("change plan", () => {
  it("a refused card changes nothing; an upgrade now with its proration; a downgrade scheduled, then withdrawn; closed plans refused", async () => {
    const id = await subscribeStudent("4000000000000341");
    expect(await location("change-plan", { subscription: id, plan: CHANGE_PLANS.plus })).toBe("/account/memberships?error=payment_refused");
    expect((await db().subscription.findUniqueOrThrow({ where: { id } })).planId).toBe(DEMO_IDS.plans.monthly);

    await db().subscription.update({ where: { id }, data: { paymentMethodId: "pm_card_visa" } });
    expect(await location("change-plan", { subscription: id, plan: CHANGE_PLANS.plus })).toBe("/account/memberships?done=plan_changed");
    const payments = await db().payment.findMany({ where: { subscriptionId: id, billingReason: "subscription_update" }, orderBy: { attempt: "asc" } });
    expect(payments.map((p) => p.state)).toEqual(["failed", "succeeded"]);

    const subs = await memberSubscriptions({ schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.student, now: new Date() });
    const mine = subs.find((s) => s.id === id)!;
    // Published recurring monthly plans in USD other than the current one (not draft, not another currency or interval).
    expect(mine.planChoices.map((p) => p.id).sort()).toEqual([CHANGE_PLANS.basic, DEMO_IDS.plans.monthly].sort());
    expect(mine).toMatchObject({ canPause: true, canResume: false, scheduledPlanName: null });

    expect(await location("change-plan", { subscription: id, plan: CHANGE_PLANS.basic })).toBe("/account/memberships?done=plan_scheduled");
    const scheduled = (await memberSubscriptions({ schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.student, now: new Date() })).find((s) => s.id === id)!;
    expect(scheduled.scheduledPlanName).toBe("Monthly Basic");
    expect(scheduled.planChoices.find((p) => p.id === CHANGE_PLANS.plus)?.label).toContain("(keep)");
    expect(await location("change-plan", { subscription: id, plan: CHANGE_PLANS.plus })).toBe("/account/memberships?done=plan_kept");
    expect((await db().subscription.findUniqueOrThrow({ where: { id } })).scheduledPlanId).toBeNull();

    for (const [plan, error] of [
      [CHANGE_PLANS.draft, "plan_closed"],
      [DEMO_IDS.plans.legacyAnnual, "plan_closed"],
      [CHANGE_PLANS.euro, "plan_incompatible"],
      [CHANGE_PLANS.plus, "same_plan"],
      ["not-a-plan", "plan_not_found"],
    ]) {
      expect(await location("change-plan", { subscription: id, plan: plan! }), plan).toBe(`/account/memberships?error=${error}`);
    }
    expect(await events(id)).toEqual([
      "subscription.created",
      "subscription.activated",
      "subscription.plan_changed",
      "subscription.plan_change_scheduled",
      "subscription.plan_change_scheduled",
    ]);
  });
});
