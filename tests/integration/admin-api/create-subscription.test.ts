import { describe, expect, it } from "vitest";
import { toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ACME_API_KEY, CANCEL, CREATE, DEMO_IDS, NO_PERMISSIONS_KEY, PLANS, TEST_NOW, freshEmail, gql, type SubscriptionJson, adminAppForSuite } from "./helpers";

const NOW = TEST_NOW;
const T = toUnixSeconds(NOW)!;
const DAY = 86_400;
const app = adminAppForSuite();

const create = (input: Record<string, unknown>, key?: string) =>
  gql(app, CREATE, { input: { email: freshEmail(), name: "New Member", ...input } }, { key }).then((r) => {
    expect(r.status).toBe(200);
    return r.body.data.createSubscription as { errors: string[]; subscription: SubscriptionJson | null };
  });

describe("createSubscription by plan type", () => {
  it("recurring: active, period of one interval from now, next charge at period end, endAt null", async () => {
    const p = await create({ planId: PLANS.monthly });
    expect(p.errors).toEqual([]);
    const s = p.subscription!;
    expect(s).toMatchObject({
      state: "active",
      planId: PLANS.monthly,
      startAt: T,
      currentPeriodStart: T,
      currentPeriodEnd: toUnixSeconds(new Date("2026-12-21T12:00:00Z")),
      nextChargeDate: toUnixSeconds(new Date("2026-12-21T12:00:00Z")),
      endAt: null,
      isCanceling: false,
      isCancellable: true,
      createdAt: T,
      updatedAt: T,
      plan: { id: PLANS.monthly, name: "Monthly Membership", planType: "recurring", interval: "month", intervalCount: 1, isLifetime: false, price: "29.00", currency: "USD" },
      user: { name: "New Member" },
    });
    expect(typeof s.id).toBe("string");
  });

  it("recurring with a yearly interval counts calendar years", async () => {
    const s = (await create({ planId: PLANS.legacyAnnual })).subscription!;
    expect(s.currentPeriodEnd).toBe(toUnixSeconds(new Date("2027-11-21T12:00:00Z")));
  });

  it("recurring with initialChargeAt: the first period ends and the first charge is at that time", async () => {
    const at = T + 7 * DAY;
    const s = (await create({ planId: PLANS.monthly, initialChargeAt: at })).subscription!;
    expect(s).toMatchObject({ state: "active", currentPeriodStart: T, currentPeriodEnd: at, nextChargeDate: at, endAt: null });
  });

  it("fixed_date: endAt and currentPeriodEnd are the plan's date, no next charge", async () => {
    const end = toUnixSeconds(new Date("2027-09-01T00:00:00Z"));
    const s = (await create({ planId: PLANS.summerCohort })).subscription!;
    expect(s).toMatchObject({ state: "active", startAt: T, currentPeriodStart: T, currentPeriodEnd: end, endAt: end, nextChargeDate: null, isCancellable: true });
  });

  it("fixed_date with expireAt: that date instead", async () => {
    const at = T + 30 * DAY;
    const s = (await create({ planId: PLANS.summerCohort, expireAt: at })).subscription!;
    expect(s).toMatchObject({ currentPeriodEnd: at, endAt: at, nextChargeDate: null });
  });

  it("specific_length: ends after the plan's length (90 days)", async () => {
    const s = (await create({ planId: PLANS.bootcamp })).subscription!;
    expect(s).toMatchObject({ state: "active", currentPeriodStart: T, currentPeriodEnd: T + 90 * DAY, endAt: T + 90 * DAY, nextChargeDate: null, isCancellable: true });
  });

  it("specific_length with expireAt: that date instead", async () => {
    const s = (await create({ planId: PLANS.bootcamp, expireAt: T + 10 * DAY })).subscription!;
    expect(s).toMatchObject({ currentPeriodEnd: T + 10 * DAY, endAt: T + 10 * DAY });
  });

  it("lifetime: endAt, currentPeriodEnd and nextChargeDate null, not cancellable", async () => {
    const s = (await create({ planId: PLANS.lifetime })).subscription!;
    expect(s).toMatchObject({
      state: "active",
      startAt: T,
      endAt: null,
      currentPeriodEnd: null,
      nextChargeDate: null,
      isCancellable: false,
      isCanceling: false,
      plan: { planType: "lifetime", isLifetime: true },
    });
  });
});

describe("createSubscription errors", () => {
  it("expireAt on a recurring or lifetime plan is an invalid plan type", async () => {
    for (const planId of [PLANS.monthly, PLANS.lifetime]) {
      expect(await create({ planId, expireAt: T + DAY })).toEqual({ errors: ["Invalid plan type"], subscription: null });
    }
  });

  it("initialChargeAt on a non-recurring plan is an invalid plan type", async () => {
    for (const planId of [PLANS.summerCohort, PLANS.bootcamp, PLANS.lifetime]) {
      expect(await create({ planId, initialChargeAt: T + DAY })).toEqual({ errors: ["Invalid plan type"], subscription: null });
    }
  });

  it("expireAt and initialChargeAt must be in the future", async () => {
    expect((await create({ planId: PLANS.bootcamp, expireAt: T - DAY })).errors).toEqual(["expireAt must be in the future"]);
    expect((await create({ planId: PLANS.monthly, initialChargeAt: T })).errors).toEqual(["initialChargeAt must be in the future"]);
  });

  it("an unknown plan, a malformed id and another school's plan are all 'Plan not found'", async () => {
    for (const planId of ["5c400000-0000-4000-8000-0003000000ff", "not-a-uuid", PLANS.acmeAnnual]) {
      expect(await create({ planId })).toEqual({ errors: ["Plan not found"], subscription: null });
    }
  });

  it("a new user without a name: 'Name is required for new users', nothing written", async () => {
    const email = freshEmail("noname");
    for (const name of [undefined, null, "", "   "]) {
      const r = await gql(app, CREATE, { input: { email, name, planId: PLANS.monthly } });
      expect(r.body.data.createSubscription).toEqual({ errors: ["Name is required for new users"], subscription: null });
    }
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
  });

  it("an existing user needs no name and keeps theirs", async () => {
    const r = await gql(app, CREATE, { input: { email: "Student@Schoolhouse.test", planId: PLANS.bootcamp } });
    const s = r.body.data.createSubscription.subscription;
    expect(s.user).toEqual({ id: DEMO_IDS.users.student, email: "student@schoolhouse.test", name: "Jamie Lee" });
    const again = await gql(app, CREATE, { input: { email: "new-user-second@example.com", name: "Ada", planId: PLANS.bootcamp } });
    const renamed = await gql(app, CREATE, { input: { email: "new-user-second@example.com", name: "Other Name", planId: PLANS.monthly } });
    expect(renamed.body.data.createSubscription.subscription.user).toEqual(again.body.data.createSubscription.subscription.user);
  });

  it("an invalid email is a clear error, not a crash", async () => {
    for (const email of ["not-an-email", "", "a@", "@b.com", "a b@c.com"]) {
      const r = await gql(app, CREATE, { input: { email, name: "X", planId: PLANS.monthly } });
      expect(r.status).toBe(200);
      expect(r.body.data.createSubscription).toEqual({ errors: ["Email is not a valid email address"], subscription: null });
    }
  });

  it("a user already subscribed to the plan", async () => {
    const email = freshEmail("dup");
    expect((await gql(app, CREATE, { input: { email, name: "D", planId: PLANS.monthly } })).body.data.createSubscription.errors).toEqual([]);
    const again = await gql(app, CREATE, { input: { email: email.toUpperCase(), name: "D", planId: PLANS.monthly } });
    expect(again.body.data.createSubscription).toEqual({ errors: ["User already subscribed to this plan"], subscription: null });
    // A different plan is fine.
    expect((await gql(app, CREATE, { input: { email, planId: PLANS.lifetime } })).body.data.createSubscription.errors).toEqual([]);
    expect(await db().subscription.count({ where: { user: { email }, planId: PLANS.monthly } })).toBe(1);
  });

  it("after a cancellation the user can subscribe to the plan again", async () => {
    const email = freshEmail("resub");
    const first = await gql(app, CREATE, { input: { email, name: "R", planId: PLANS.monthly } });
    const id = first.body.data.createSubscription.subscription.id;
    await gql(app, CANCEL, { input: { id, cancelAtPeriodEnd: false } });
    const second = await gql(app, CREATE, { input: { email, planId: PLANS.monthly } });
    expect(second.body.data.createSubscription.errors).toEqual([]);
    expect(second.body.data.createSubscription.subscription.id).not.toBe(id);
  });

  it("a key without the permission: Unauthorized, subscription null, nothing written", async () => {
    const email = freshEmail("unauth");
    const r = await gql(app, CREATE, { input: { email, name: "U", planId: PLANS.monthly } }, { key: NO_PERMISSIONS_KEY });
    expect(r.status).toBe(200);
    expect(r.body.data.createSubscription).toEqual({ errors: ["Unauthorized"], subscription: null });
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
  });

  it("a new user becomes a student member of the key's school", async () => {
    const email = freshEmail("member");
    await gql(app, CREATE, { input: { email, name: "M", planId: PLANS.monthly } });
    const user = await db().user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.memberships.map((m) => [m.schoolId, m.roles])).toEqual([[DEMO_IDS.school, ["student"]]]);
  });
});

describe("schools are isolated", () => {
  it("the Acme key subscribes to Acme's plans only, and its subscriptions belong to Acme", async () => {
    const demo = await create({ planId: PLANS.monthly }, ACME_API_KEY);
    expect(demo).toEqual({ errors: ["Plan not found"], subscription: null });
    const acme = await create({ planId: PLANS.acmeAnnual }, ACME_API_KEY);
    expect(acme.errors).toEqual([]);
    const row = await db().subscription.findUniqueOrThrow({ where: { id: acme.subscription!.id } });
    expect(row.schoolId).toBe(DEMO_IDS.acmeSchool);
  });
});
