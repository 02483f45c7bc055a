// Idempotency inside the limits (issue 11): the limiter decides before an Idempotency-Key is
// claimed, concurrent requests with one key execute once, replays count and carry the budget
// state after their own charge, and one classifier serves the limiter and idempotency.
import { afterAll, describe, expect, it } from "vitest";
import { advance } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { CREATE, FULL_KEY, PLANS, adminAppForSuite, freshEmail, gql } from "./helpers";
import { expectAllRefusedUnclaimed, expectOneExecution, fillMutationWindow, restoreLimits, sendConcurrently, applyLimits } from "./keyed-concurrency";

const app = adminAppForSuite();
const SETTINGS = ["RATE_LIMIT_MUTATIONS", "RATE_LIMIT_QUERIES"];
afterAll(() => restoreLimits(SETTINGS));

describe("concurrent requests with one Idempotency-Key", () => {
  it("with an open window: one execution, the others a replay, a 409 with Retry-After or the limiter's 429; never a 500", async () => {
    await applyLimits({ RATE_LIMIT_MUTATIONS: "200" });
    const { email, responses } = await sendConcurrently(app, "concurrent-open");
    await expectOneExecution(email, responses);
  });

  it("with a full window: all refused by the limiter before any key is claimed; once the window opens, one execution", async () => {
    await applyLimits({ RATE_LIMIT_MUTATIONS: "5" });
    await fillMutationWindow(app, 5);
    const email = freshEmail("full-window");
    const refused = await sendConcurrently(app, "concurrent-full", email);
    await expectAllRefusedUnclaimed("concurrent-full", email, refused.responses);
    advance(60_000);
    const admitted = await sendConcurrently(app, "concurrent-full", email);
    await expectOneExecution(email, admitted.responses);
  });
});

describe("replays are requests", () => {
  it("counts a replay and answers it with the budget state after its own charge", async () => {
    await applyLimits({ RATE_LIMIT_MUTATIONS: "4" });
    const vars = { input: { email: freshEmail("replay-count"), name: "R", planId: PLANS.monthly } };
    const send = () => gql(app, CREATE, vars, { headers: { "idempotency-key": "replay-count" } });
    const first = await send();
    expect(first.body.extensions.rate_limit.per_minute).toMatchObject({ used: 1, remaining: 3 });
    const replay = await send();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data).toEqual(first.body.data);
    expect(replay.body.extensions.rate_limit.per_minute).toMatchObject({ used: 2, remaining: 2 });
    for (const h of ["RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]) {
      expect(replay.headers.get(h), h).not.toBeNull();
    }
    // The replay's own charge: the runtime balance it reports is not the first response's.
    expect(Number(replay.headers.get("RateLimit-Remaining"))).toBeLessThanOrEqual(Number(first.headers.get("RateLimit-Remaining")));
    await send();
    await send();
    // The window is full: the limiter answers before the replay (it used to answer 200 here).
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", operation_type: "mutations" });
    expect(refused.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("one operation-type classifier", () => {
  it("`query A {…} mutation B {…}` run as B is a mutation for the limiter and for idempotency", async () => {
    await applyLimits({ RATE_LIMIT_MUTATIONS: "200" });
    const email = freshEmail("classifier");
    const query = `query A { membershipPlans { id } }
      mutation B($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id } } }`;
    const send = async () => {
      const res = await app.fetch("/admin/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY, "idempotency-key": "classifier-b" },
        body: JSON.stringify({ query, operationName: "B", variables: { input: { email, name: "B", planId: PLANS.monthly } } }),
      });
      return { res, body: await res.json() };
    };
    const first = await send();
    expect(first.body.data.createSubscription.errors).toEqual([]);
    expect(first.body.extensions.rate_limit.operation_type).toBe("mutations");
    const second = await send();
    expect(second.res.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.extensions.rate_limit.operation_type).toBe("mutations");
    expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
  });
});
