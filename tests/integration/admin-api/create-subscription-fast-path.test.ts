import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { CREATE, PLANS, TEST_NOW, adminAppForSuite, freshEmail, gql } from "./helpers";

// A new person's createSubscription is one statement with the plan from a process cache
// (lib/membership/subscribe-new-member.ts, plan-cache.ts). The statement writes only while the
// content version the plan was read at still holds, so a changed or deleted plan is never used.
const app = adminAppForSuite();
const create = async (input: Record<string, unknown>) => {
  const r = await gql(app, CREATE, { input: { email: freshEmail("fast"), name: "Fast Path", ...input } });
  expect(r.status).toBe(200);
  return r.body.data.createSubscription;
};
const ts = (d: Date) => Math.floor(d.getTime() / 1000);

describe("createSubscription for a new person with a cached plan", () => {
  it("writes the user, membership, subscription and both events together", async () => {
    const email = freshEmail("rows");
    const r = await gql(app, CREATE, { input: { email, name: "  Rows Person  ", planId: PLANS.monthly } });
    const s = r.body.data.createSubscription.subscription;
    expect(s.user).toMatchObject({ email, name: "Rows Person" });
    const user = await db().user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.memberships.map((m) => m.roles)).toEqual([["student"]]);
    const events = await db().webhookEvent.findMany({ where: { subjectId: { in: [user.id, s.id] } }, orderBy: { type: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["member.created", "subscription.created"]);
    expect(JSON.parse(events[1]!.payload).data).toMatchObject({ id: s.id, state: "active", user: { id: user.id, email } });
  });

  it("uses a plan's new terms at once after it changes, and refuses it at once after it is deleted", async () => {
    await create({ planId: PLANS.monthly }); // the plan is now cached
    await db().membershipPlan.update({ where: { id: PLANS.monthly }, data: { intervalCount: 3, name: "Quarterly" } });
    try {
      const s = (await create({ planId: PLANS.monthly })).subscription;
      expect(s.plan).toMatchObject({ name: "Quarterly", intervalCount: 3 });
      expect(s.currentPeriodEnd).toBe(ts(new Date("2027-02-21T12:00:00Z")));
    } finally {
      await db().membershipPlan.update({ where: { id: PLANS.monthly }, data: { intervalCount: 1, name: "Monthly Membership" } });
    }
    expect((await create({ planId: PLANS.monthly })).subscription.currentPeriodEnd).toBe(ts(new Date("2026-12-21T12:00:00Z")));

    // A plan cached, then changed in type: the request's terms are checked against the new type.
    await create({ planId: PLANS.lifetime });
    await db().membershipPlan.update({ where: { id: PLANS.lifetime }, data: { planType: "fixed_date", fixedEndAt: new Date(TEST_NOW.getTime() + 86_400_000) } });
    try {
      const s = (await create({ planId: PLANS.lifetime })).subscription;
      expect(s.endAt).toBe(ts(TEST_NOW) + 86_400);
    } finally {
      await db().membershipPlan.update({ where: { id: PLANS.lifetime }, data: { planType: "lifetime", fixedEndAt: null } });
    }

    const plan = await db().membershipPlan.findUniqueOrThrow({ where: { id: PLANS.monthly } });
    const { id: _id, ...rest } = plan;
    const temp = await db().membershipPlan.create({ data: { ...rest, slug: "temporary-plan" } });
    expect((await create({ planId: temp.id })).errors).toEqual([]);
    await db().subscription.deleteMany({ where: { planId: temp.id } });
    await db().membershipPlan.delete({ where: { id: temp.id } });
    expect(await create({ planId: temp.id })).toEqual({ errors: ["Plan not found"], subscription: null });
  });

  it("takes the general path for a known email (no duplicate user, the live-subscription rule holds)", async () => {
    const email = freshEmail("known");
    expect((await gql(app, CREATE, { input: { email, name: "Known", planId: PLANS.monthly } })).body.data.createSubscription.errors).toEqual([]);
    const again = await gql(app, CREATE, { input: { email, name: "Known", planId: PLANS.monthly } });
    expect(again.body.data.createSubscription).toEqual({ errors: ["User already subscribed to this plan"], subscription: null });
    expect(await db().user.count({ where: { email } })).toBe(1);
  });
});
