// Period bounds are compared at the precision the API exposes (issue 11, finding 12): stored
// milliseconds made the currentPeriodStart (or startAt) the API returned "earlier" than itself.
import { describe, expect, it } from "vitest";
import { BEFORE_PERIOD_START } from "@/lib/membership/update-subscription";
import { CUSTOM_END_BEFORE_START } from "@/lib/membership/cancel-subscription";
import { CANCEL, PLANS, UPDATE, adminAppForSuite, gql, subscribe } from "./helpers";

// A clock with milliseconds: the stored start has them, the API shows whole seconds.
const app = adminAppForSuite({ now: new Date("2026-11-21T12:00:00.700Z") });

describe("period bounds at second precision", () => {
  it("updateSubscription accepts currentPeriodEnd equal to the currentPeriodStart it returned, and refuses one second before", async () => {
    const sub = await subscribe(app, PLANS.monthly);
    const equal = await gql(app, UPDATE, { input: { id: sub.id, currentPeriodEnd: sub.currentPeriodStart } });
    expect(equal.body.errors, JSON.stringify(equal.body)).toBeUndefined();
    expect(equal.body.data.updateSubscription.errors).not.toContain(BEFORE_PERIOD_START);
    const other = await subscribe(app, PLANS.monthly);
    const before = await gql(app, UPDATE, { input: { id: other.id, currentPeriodEnd: other.currentPeriodStart - 1 } });
    expect(before.body.data.updateSubscription.errors).toContain(BEFORE_PERIOD_START);
  });

  it("cancelSubscription accepts customEndedAt equal to the startAt it returned, and refuses one second before", async () => {
    const sub = await subscribe(app, PLANS.monthly);
    const before = await gql(app, CANCEL, { input: { id: sub.id, customEndedAt: sub.startAt - 1 } });
    expect(before.body.data.cancelSubscription.errors).toContain(CUSTOM_END_BEFORE_START);
    const equal = await gql(app, CANCEL, { input: { id: sub.id, customEndedAt: sub.startAt } });
    expect(equal.body.data.cancelSubscription.errors).toEqual([]);
  });
});
