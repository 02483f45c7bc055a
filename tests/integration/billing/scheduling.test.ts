// Where renewals run: the cron route (after settling, for every school) and the in-process worker of
// a long-running server; and updateSubscription moving the next charge with the period end.
import { afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { resetEnvCache } from "@/lib/env";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { PLANS, TEST_NOW, adminAppForSuite, gql } from "../admin-api/helpers";
import { CARDS, readBilled, subscribeWithCard } from "./helpers";

const app = adminAppForSuite();
const SECRET = "cron-secret-for-billing-tests-0123456";
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;
const JAN_21 = toUnixSeconds(new Date("2027-01-21T12:00:00Z"))!;
const UPDATE = `mutation U($input: AdminUpdateSubscriptionInput!) { updateSubscription(input: $input) { errors subscription { id nextChargeDate } } }`;

afterEach(() => {
  setNow(TEST_NOW);
  delete process.env.CRON_SECRET;
  resetEnvCache();
});

describe("when renewals run", () => {
  it("GET /api/cron/subscriptions renews what is due and reports it", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    process.env.CRON_SECRET = SECRET;
    resetEnvCache();
    setNow(new Date(DEC_21 * 1000));
    const r = await app.fetch("/api/cron/subscriptions", { headers: { authorization: `Bearer ${SECRET}` } });
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.renewals.outcomes.succeeded).toBeGreaterThanOrEqual(1);
    expect(await readBilled(app, s.id)).toMatchObject({ state: "active", currentPeriodStart: DEC_21, currentPeriodEnd: JAN_21 });
  });

  it("the in-process worker runs them when asked to (renewals: true)", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const worker = startWebhookWorker({ intervalMs: 50, renewals: true, now: () => new Date(JAN_21 * 1000 + 1000), log: () => {} });
    try {
      const started = Date.now();
      let read = await readBilled(app, s.id);
      // Pending while the worker's charge is in flight; done once recorded.
      while (read.payments[1]?.state !== "succeeded" && Date.now() - started < 20_000) {
        await new Promise((r) => setTimeout(r, 100));
        read = await readBilled(app, s.id);
      }
      expect(read.payments[1]).toMatchObject({ state: "succeeded", billingReason: "subscription_cycle" });
    } finally {
      await worker.stop();
    }
  });

  it("updateSubscription(currentPeriodEnd) moves the next charge with it", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const r = await gql(app, UPDATE, { input: { id: s.id, currentPeriodEnd: DEC_21 + 86_400 * 5 } });
    expect(r.body.data.updateSubscription.subscription.nextChargeDate).toBe(DEC_21 + 86_400 * 5);
    const { renewDueSubscriptions } = await import("@/lib/billing/renew-due");
    await renewDueSubscriptions({ now: new Date(DEC_21 * 1000) });
    expect((await readBilled(app, s.id)).payments).toHaveLength(1);
    await renewDueSubscriptions({ now: new Date((DEC_21 + 86_400 * 5) * 1000) });
    const paid = await readBilled(app, s.id);
    expect(paid.payments[1]).toMatchObject({ state: "succeeded", periodStart: DEC_21 + 86_400 * 5 });
  });
});
