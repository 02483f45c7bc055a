// Time moves: scheduled cancellations take effect and fixed-length subscriptions expire, visible on
// the next read (lazily) and applied by the cron route.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { CANCEL, CREATE, GET_SUBSCRIPTION, PLANS, TEST_NOW, freshEmail, gql, subscribe, adminAppForSuite } from "./helpers";

const NOW = TEST_NOW;
const T = toUnixSeconds(NOW)!;
const DAY = 86_400;
const at = (unix: number) => setNow(new Date(unix * 1000));
const SECRET = "cron-secret-for-tests-0123456789";
const app = adminAppForSuite({ now: null });

afterEach(() => setNow(NOW));
afterAll(() => {
  delete process.env.CRON_SECRET;
  resetEnvCache();
});

const read = async (id: string) => (await gql(app, GET_SUBSCRIPTION, { id })).body.data.subscription;

describe("lazily on read", () => {
  it("a scheduled cancellation takes effect when its time passes", async () => {
    at(T);
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: s.id } });
    at(s.currentPeriodEnd - 1);
    expect(await read(s.id)).toMatchObject({ state: "active", isCanceling: true, cancelAt: s.currentPeriodEnd });
    at(s.currentPeriodEnd + 5);
    expect(await read(s.id)).toMatchObject({
      state: "canceled",
      isCanceling: false,
      cancelAt: null,
      canceledAt: s.currentPeriodEnd,
      endAt: s.currentPeriodEnd,
      nextChargeDate: null,
      isCancellable: false,
    });
  });

  it("fixed_date and specific_length subscriptions expire at endAt", async () => {
    at(T);
    const fixed = await subscribe(app, PLANS.summerCohort, { expireAt: T + 3 * DAY });
    const length = await subscribe(app, PLANS.bootcamp);
    at(T + 3 * DAY - 1);
    expect((await read(fixed.id)).state).toBe("active");
    at(T + 3 * DAY);
    expect(await read(fixed.id)).toMatchObject({ state: "expired", isCancellable: false, endAt: T + 3 * DAY });
    expect((await read(length.id)).state).toBe("active");
    at(T + 90 * DAY);
    expect((await read(length.id)).state).toBe("expired");
  });

  it("recurring and lifetime subscriptions do not expire by time", async () => {
    at(T);
    const rec = await subscribe(app, PLANS.monthly);
    const life = await subscribe(app, PLANS.lifetime);
    at(T + 400 * DAY);
    expect((await read(rec.id)).state).toBe("active");
    expect((await read(life.id)).state).toBe("active");
  });

  it("the subscriptions list shows the settled state too", async () => {
    at(T);
    const s = await subscribe(app, PLANS.bootcamp, { expireAt: T + DAY });
    at(T + 2 * DAY);
    const r = await gql(app, `query($planId: String) { subscriptions(planId: $planId, first: 100) { nodes { id state } } }`, { planId: PLANS.bootcamp });
    expect(r.body.data.subscriptions.nodes.find((n: { id: string }) => n.id === s.id).state).toBe("expired");
  });

  it("an expired subscription no longer blocks subscribing again, and cannot be cancelled", async () => {
    at(T);
    const email = freshEmail("again");
    const first = await gql(app, CREATE, { input: { email, name: "A", planId: PLANS.bootcamp, expireAt: T + DAY } });
    const id = first.body.data.createSubscription.subscription.id;
    at(T + 2 * DAY);
    const second = await gql(app, CREATE, { input: { email, planId: PLANS.bootcamp } });
    expect(second.body.data.createSubscription.errors).toEqual([]);
    const c = await gql(app, CANCEL, { input: { id } });
    expect(c.body.data.cancelSubscription).toEqual({ errors: ["Subscription is not cancellable"], subscription: null });
  });

  it("a scheduled cancellation that has passed no longer blocks subscribing again", async () => {
    at(T);
    const email = freshEmail("cancel-then-again");
    const first = (await gql(app, CREATE, { input: { email, name: "C", planId: PLANS.monthly } })).body.data.createSubscription.subscription;
    await gql(app, CANCEL, { input: { id: first.id } });
    at(first.currentPeriodEnd - 1);
    const early = await gql(app, CREATE, { input: { email, planId: PLANS.monthly } });
    expect(early.body.data.createSubscription).toEqual({ errors: ["User already subscribed to this plan"], subscription: null });
    at(first.currentPeriodEnd + 1);
    // No read of the old subscription in between: creating settles it first.
    const again = await gql(app, CREATE, { input: { email, planId: PLANS.monthly } });
    expect(again.body.data.createSubscription.errors).toEqual([]);
    expect(await read(first.id)).toMatchObject({ state: "canceled", canceledAt: first.currentPeriodEnd });
  });

  it("updating after a scheduled cancellation took effect reports the cancelled state", async () => {
    at(T);
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: s.id, customEndedAt: T + DAY } });
    at(T + 2 * DAY);
    const r = await gql(app, `mutation($input: AdminUpdateSubscriptionInput!) { updateSubscription(input: $input) { errors } }`, {
      input: { id: s.id, currentPeriodEnd: T + 60 * DAY },
    });
    expect(r.body.data.updateSubscription.errors).toEqual(["Cannot update an already cancelled subscription"]);
  });
});

describe("cron route", () => {
  const cron = (headers: Record<string, string> = {}) => app.fetch("/api/cron/subscriptions", { headers });

  it("refuses with 503 when CRON_SECRET is not configured", async () => {
    delete process.env.CRON_SECRET;
    resetEnvCache();
    const r = await cron({ authorization: "Bearer anything-at-all-here" });
    expect(r.status).toBe(503);
    expect(await r.json()).toMatchObject({ error: "cron_disabled" });
  });

  it("refuses a missing or wrong secret with 401", async () => {
    process.env.CRON_SECRET = SECRET;
    resetEnvCache();
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong-secret-000000000000" }, { authorization: SECRET }];
    for (const h of attempts) {
      const r = await cron(h);
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ error: "unauthorized" });
    }
  });

  it("applies due cancellations and expiries across schools, without any read", async () => {
    process.env.CRON_SECRET = SECRET;
    resetEnvCache();
    at(T);
    const canceling = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: canceling.id } });
    const expiring = await subscribe(app, PLANS.bootcamp, { expireAt: T + DAY });
    const staying = await subscribe(app, PLANS.monthly);
    at(canceling.currentPeriodEnd + 1);
    const r = await cron({ authorization: `Bearer ${SECRET}` });
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.ok).toBe(true);
    expect(body.canceled).toBeGreaterThanOrEqual(1);
    expect(body.expired).toBeGreaterThanOrEqual(1);
    const rows = await db().subscription.findMany({ where: { id: { in: [canceling.id, expiring.id, staying.id] } } });
    const state = Object.fromEntries(rows.map((x) => [x.id, x]));
    expect(state[canceling.id]!.state).toBe("canceled");
    expect(state[canceling.id]!.cancelAt).toBeNull();
    expect(toUnixSeconds(state[canceling.id]!.canceledAt)).toBe(canceling.currentPeriodEnd);
    expect(state[expiring.id]!.state).toBe("expired");
    expect(state[staying.id]!.state).toBe("active");
    // Idempotent: a second run changes nothing.
    const again = await (await cron({ authorization: `Bearer ${SECRET}` })).json();
    expect(again).toMatchObject({ canceled: 0, expired: 0 });
  });

  it("vercel.json schedules the route", async () => {
    const { readFile } = await import("node:fs/promises");
    const config = JSON.parse(await readFile(new URL("../../../vercel.json", import.meta.url), "utf8"));
    expect(config.crons).toContainEqual(expect.objectContaining({ path: "/api/cron/subscriptions" }));
  });
});
