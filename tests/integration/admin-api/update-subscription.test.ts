import { describe, expect, it } from "vitest";
import { toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { selectsFrom, statementsOf } from "../../helpers/statements";
import { ACME_API_KEY, CANCEL, NO_PERMISSIONS_KEY, PLANS, TEST_NOW, UPDATE, gql, subscribe, type SubscriptionJson, adminAppForSuite } from "./helpers";

const NOW = TEST_NOW;
const T = toUnixSeconds(NOW)!;
const DAY = 86_400;
const app = adminAppForSuite();

const update = async (id: string, currentPeriodEnd: number, key?: string) => {
  const r = await gql(app, UPDATE, { input: { id, currentPeriodEnd } }, { key });
  expect(r.status).toBe(200);
  return r.body.data.updateSubscription as { errors: string[]; subscription: SubscriptionJson | null };
};

describe("updateSubscription", () => {
  it("extends a recurring period; nextChargeDate follows the new end", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const p = await update(s.id, T + 60 * DAY);
    expect(p.errors).toEqual([]);
    expect(p.subscription).toMatchObject({
      id: s.id,
      state: "active",
      currentPeriodStart: T,
      currentPeriodEnd: T + 60 * DAY,
      nextChargeDate: T + 60 * DAY,
      endAt: null,
      payments: [],
    });
  });

  it("shortens a recurring period (state unchanged)", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const p = await update(s.id, T + 2 * DAY);
    expect(p.subscription).toMatchObject({ state: "active", currentPeriodEnd: T + 2 * DAY, nextChargeDate: T + 2 * DAY });
  });

  it("fixed_date and specific_length: endAt follows the new period end", async () => {
    for (const plan of [PLANS.summerCohort, PLANS.bootcamp]) {
      const s = await subscribe(app, plan);
      const p = await update(s.id, T + 5 * DAY);
      expect(p.subscription).toMatchObject({ currentPeriodEnd: T + 5 * DAY, endAt: T + 5 * DAY, nextChargeDate: null, state: "active" });
    }
  });

  it("reads the subscription with its plan, member and payments once to check it and once as written, not again when nothing expired", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const { result, sql } = await statementsOf(`api_key:${DEMO_IDS.apiKeys.full}`, () => gql(app, UPDATE, { input: { id: s.id, currentPeriodEnd: T + 45 * DAY } }));
    expect(result.body.data.updateSubscription.errors).toEqual([]);
    // Prisma's include reads the subscription (then plan, user and payments by their own SELECTs):
    // one for the checks, and the UPDATE … RETURNING's follow-up read of the written row.
    expect(selectsFrom(sql, "Subscription").filter((q) => q.includes('"public"."Subscription"'))).toHaveLength(2);
  });

  it("1. lifetime: 'Cannot update period for lifetime subscriptions'", async () => {
    const s = await subscribe(app, PLANS.lifetime);
    expect(await update(s.id, T + DAY)).toEqual({ errors: ["Cannot update period for lifetime subscriptions"], subscription: null });
  });

  it("2. pending cancellation: any change is refused and points to cancelSubscription", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: s.id } });
    const msg = "Cannot update a subscription that is pending cancellation. Use cancelSubscription mutation instead.";
    for (const end of [T + 90 * DAY, T + DAY, T - 30 * DAY]) {
      expect(await update(s.id, end)).toEqual({ errors: [msg], subscription: null });
    }
  });

  it("3. already cancelled: 'Cannot update an already cancelled subscription'", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: s.id, cancelAtPeriodEnd: false } });
    expect(await update(s.id, T + DAY)).toEqual({ errors: ["Cannot update an already cancelled subscription"], subscription: null });
  });

  it("4. more than 10 years ahead is refused; exactly 10 years is allowed", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const tenYears = toUnixSeconds(new Date("2036-11-21T12:00:00Z"))!;
    expect(await update(s.id, tenYears + 1)).toEqual({ errors: ["Timestamp cannot be more than 10 years in the future"], subscription: null });
    expect((await update(s.id, tenYears)).errors).toEqual([]);
  });

  it("a timestamp beyond GraphQL's 32-bit Int is a 400 validation error, nothing executes", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const r = await gql(app, UPDATE, { input: { id: s.id, currentPeriodEnd: 2 ** 31 } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/Int cannot represent non 32-bit signed integer value/);
  });

  it("5. more than 1 year back is refused", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const oneYearBack = toUnixSeconds(new Date("2025-11-21T12:00:00Z"))!;
    expect(await update(s.id, oneYearBack - 1)).toEqual({ errors: ["Timestamp cannot be more than 1 year in the past"], subscription: null });
  });

  it("6. an end before the current period start is refused", async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect(await update(s.id, T - DAY)).toEqual({ errors: ["Cannot set end date earlier than current period start"], subscription: null });
    // Exactly the period start is allowed.
    expect((await update(s.id, T)).errors).toEqual([]);
  });

  it("checks rules in the documented order", async () => {
    // Lifetime beats the bounds; pending cancellation beats the bounds; canceled beats pending.
    const life = await subscribe(app, PLANS.lifetime);
    expect((await update(life.id, T + 11 * 365 * DAY)).errors).toEqual(["Cannot update period for lifetime subscriptions"]);
    const pending = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: pending.id } });
    expect((await update(pending.id, T + 11 * 365 * DAY)).errors[0]).toMatch(/pending cancellation/);
    // Future bound before past/period-start checks; past bound before period start.
    const s = await subscribe(app, PLANS.monthly);
    expect((await update(s.id, T - 400 * DAY)).errors).toEqual(["Timestamp cannot be more than 1 year in the past"]);
  });

  it("an unknown, malformed or other school's id: 'Subscription not found'", async () => {
    const s = await subscribe(app, PLANS.monthly);
    for (const [id, key] of [
      ["5c400000-0000-4000-8000-00ff00000001", undefined],
      ["nope", undefined],
      [s.id, ACME_API_KEY],
    ] as const) {
      expect(await update(id, T + DAY, key)).toEqual({ errors: ["Subscription not found"], subscription: null });
    }
    const row = await db().subscription.findUniqueOrThrow({ where: { id: s.id } });
    expect(toUnixSeconds(row.currentPeriodEnd)).toBe(s.currentPeriodEnd);
  });

  it("a key without the permission: Unauthorized", async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect(await update(s.id, T + DAY, NO_PERMISSIONS_KEY)).toEqual({ errors: ["Unauthorized"], subscription: null });
  });

  it("returns payments of the subscription", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await db().payment.create({
      data: { schoolId: (await db().subscription.findUniqueOrThrow({ where: { id: s.id } })).schoolId, subscriptionId: s.id, amount: "29.00", currency: "USD", state: "succeeded", paidAt: NOW },
    });
    const p = await update(s.id, T + 40 * DAY);
    expect(p.subscription!.payments).toEqual([{ id: expect.any(String), amount: "29.00", currency: "USD", state: "succeeded", paidAt: T }]);
  });
});
