import { describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ACME_API_KEY, CANCEL, NO_PERMISSIONS_KEY, PLANS, TEST_NOW, gql, subscribe, type SubscriptionJson, adminAppForSuite } from "./helpers";

const NOW = TEST_NOW;
const T = toUnixSeconds(NOW)!;
const DAY = 86_400;
const app = adminAppForSuite();

const cancel = async (input: Record<string, unknown>, key?: string) => {
  const r = await gql(app, CANCEL, { input }, { key });
  expect(r.status).toBe(200);
  return r.body.data.cancelSubscription as { errors: string[]; subscription: SubscriptionJson | null };
};

describe("cancelSubscription", () => {
  it("default (cancelAtPeriodEnd true) schedules: isCanceling, cancelAt = period end, still active, no next charge", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const p = await cancel({ id: s.id });
    expect(p.errors).toEqual([]);
    expect(p.subscription).toMatchObject({
      state: "active",
      isCanceling: true,
      cancelAt: s.currentPeriodEnd,
      nextChargeDate: null,
      canceledAt: null,
      endAt: null,
      currentPeriodEnd: s.currentPeriodEnd,
      cancelType: "at_period_end",
    });
    expect((await cancel({ id: (await subscribe(app, PLANS.monthly)).id, cancelAtPeriodEnd: true })).subscription!.isCanceling).toBe(true);
  });

  it("a pending cancellation is cancelled at once, whatever the arguments", async () => {
    for (const args of [{}, { cancelAtPeriodEnd: true }, { cancelAtPeriodEnd: false }, { customEndedAt: T + 50 * DAY }, { customEndedAt: T - DAY }]) {
      const s = await subscribe(app, PLANS.monthly);
      await cancel({ id: s.id });
      const p = await cancel({ id: s.id, ...args });
      expect(p.errors).toEqual([]);
      expect(p.subscription).toMatchObject({ state: "canceled", cancelAt: null, endAt: T, canceledAt: T, isCanceling: false, isCancellable: false, nextChargeDate: null });
    }
  });

  it("lifetime: 'Subscription is not cancellable'", async () => {
    const s = await subscribe(app, PLANS.lifetime);
    for (const args of [{}, { cancelAtPeriodEnd: false }, { customEndedAt: T + DAY }]) {
      expect(await cancel({ id: s.id, ...args })).toEqual({ errors: ["Subscription is not cancellable"], subscription: null });
    }
  });

  it("already cancelled: 'Subscription already cancelled'", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await cancel({ id: s.id, cancelAtPeriodEnd: false });
    expect(await cancel({ id: s.id })).toEqual({ errors: ["Subscription already cancelled"], subscription: null });
  });

  it("cancelAtPeriodEnd false on an active subscription cancels now", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const p = await cancel({ id: s.id, cancelAtPeriodEnd: false });
    expect(p.subscription).toMatchObject({ state: "canceled", endAt: T, canceledAt: T, cancelAt: null, isCanceling: false, nextChargeDate: null, cancelType: "immediate" });
  });

  it("customEndedAt in the future schedules the cancellation for then", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const p = await cancel({ id: s.id, cancelAtPeriodEnd: false, customEndedAt: T + 3 * DAY });
    expect(p.subscription).toMatchObject({ state: "active", isCanceling: true, cancelAt: T + 3 * DAY, nextChargeDate: null, cancelType: "custom_date" });
  });

  it("customEndedAt in the past cancels now, with endAt at that time", async () => {
    const s = await subscribe(app, PLANS.bootcamp);
    setNow(new Date(NOW.getTime() + 10 * DAY * 1000));
    try {
      const p = await cancel({ id: s.id, customEndedAt: T + 2 * DAY });
      expect(p.subscription).toMatchObject({ state: "canceled", endAt: T + 2 * DAY, canceledAt: T + 10 * DAY, cancelAt: null, isCanceling: false });
    } finally {
      setNow(NOW);
    }
  });

  it("customEndedAt before the subscription start is refused", async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect(await cancel({ id: s.id, customEndedAt: T - DAY })).toEqual({
      errors: ["customEndedAt cannot be earlier than the subscription start"],
      subscription: null,
    });
  });

  it("fixed_date and specific_length subscriptions are cancellable (scheduled for their end)", async () => {
    for (const plan of [PLANS.summerCohort, PLANS.bootcamp]) {
      const s = await subscribe(app, plan);
      const p = await cancel({ id: s.id });
      expect(p.subscription).toMatchObject({ state: "active", isCanceling: true, cancelAt: s.endAt });
    }
  });

  it("an unknown, malformed or other school's id: 'Subscription not found'", async () => {
    const s = await subscribe(app, PLANS.monthly);
    for (const [id, key] of [
      ["5c400000-0000-4000-8000-00ff00000001", undefined],
      ["42", undefined],
      [s.id, ACME_API_KEY],
    ] as const) {
      expect(await cancel({ id }, key)).toEqual({ errors: ["Subscription not found"], subscription: null });
    }
    expect((await db().subscription.findUniqueOrThrow({ where: { id: s.id } })).cancelAt).toBeNull();
  });

  it("a key without the permission: Unauthorized, nothing changes", async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect(await cancel({ id: s.id }, NO_PERMISSIONS_KEY)).toEqual({ errors: ["Unauthorized"], subscription: null });
    expect((await db().subscription.findUniqueOrThrow({ where: { id: s.id } })).cancelAt).toBeNull();
  });
});
