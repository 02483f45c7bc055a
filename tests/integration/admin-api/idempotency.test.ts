import { describe, expect, it } from "vitest";
import { advance } from "@/lib/clock";
import { IDEMPOTENCY_CLAIM_LEASE_MS } from "@/lib/admin-api/idempotency";
import { db } from "@/lib/db/client";
import { ACME_API_KEY, CREATE, PLANS, freshEmail, gql, adminAppForSuite } from "./helpers";

const app = adminAppForSuite();

const create = (email: string, key: string, apiKey?: string) =>
  gql(app, CREATE, { input: { email, name: "I", planId: PLANS.monthly } }, { headers: { "idempotency-key": key }, key: apiKey });

describe("Idempotency-Key", () => {
  it("a repeat with the same key and body returns the first response without executing again", async () => {
    const email = freshEmail("idem");
    const first = await create(email, "key-1");
    expect(first.body.data.createSubscription.errors).toEqual([]);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    advance(60_000);
    const second = await create(email, "key-1");
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    // A replay is a request: counted, with the budget state after its own charge (issue 11). The
    // first request left the window 60 s later; the replay itself is the one counted.
    expect(second.body.extensions.rate_limit).toMatchObject({ operation_type: "mutations", per_minute: { used: 1 } });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
    // Without the key the same request executes (and now fails as a duplicate).
    const third = await gql(app, CREATE, { input: { email, name: "I", planId: PLANS.monthly } });
    expect(third.body.data.createSubscription.errors).toEqual(["User already subscribed to this plan"]);
  });

  it("treats a mutation behind a leading comment as a mutation, as the rate limiter does", async () => {
    const email = freshEmail("comment");
    const commented = `# created from a script\n${CREATE}`;
    const vars = { input: { email, name: "I", planId: PLANS.monthly } };
    const first = await gql(app, commented, vars, { headers: { "idempotency-key": "comment-1" } });
    const second = await gql(app, commented, vars, { headers: { "idempotency-key": "comment-1" } });
    expect(first.body.data.createSubscription.errors).toEqual([]);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
  });

  it("replays a failure payload too", async () => {
    const r1 = await gql(app, CREATE, { input: { email: freshEmail(), name: "I", planId: "nope" } }, { headers: { "idempotency-key": "fail-1" } });
    const r2 = await gql(app, CREATE, { input: JSON.parse(JSON.stringify({ email: "x", planId: "nope" })) }, { headers: { "idempotency-key": "fail-1" } });
    expect(r1.body.data.createSubscription.errors).toEqual(["Plan not found"]);
    expect(r2.status).toBe(422);
  });

  it("the same key with another body is refused with 422", async () => {
    await create(freshEmail("a"), "key-2");
    const other = await create(freshEmail("b"), "key-2");
    expect(other.status).toBe(422);
    expect(other.body.errors[0]).toMatchObject({
      message: "This Idempotency-Key was already used with a different request body; use a new key for a new request",
      extensions: { code: "IDEMPOTENCY_KEY_REUSED" },
    });
    expect(other.body.data).toBeUndefined();
  });

  it("keys are per API key", async () => {
    const email = freshEmail("per-key");
    await create(email, "shared-key");
    const acme = await gql(app, CREATE, { input: { email, name: "I", planId: PLANS.acmeAnnual } }, { key: ACME_API_KEY, headers: { "idempotency-key": "shared-key" } });
    expect(acme.status).toBe(200);
    expect(acme.body.data.createSubscription.errors).toEqual([]);
  });

  it("after 24 hours the key can be used again and executes", async () => {
    const email = freshEmail("ttl");
    await create(email, "key-ttl");
    advance(24 * 3600 * 1000 + 1000);
    const again = await create(email, "key-ttl");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.data.createSubscription.errors).toEqual(["User already subscribed to this plan"]);
  });

  it("a claim left in progress (its process died, or an outage kept it from being released) is 409 until the lease passes, then taken over", async () => {
    const email = freshEmail("lease");
    await create(email, "lease-1");
    // As if the first request never got to record its result.
    await db().idempotencyKey.updateMany({ where: { key: "lease-1" }, data: { responseStatus: 0, responseBody: "" } });
    advance(IDEMPOTENCY_CLAIM_LEASE_MS - 1000);
    const inUse = await create(email, "lease-1");
    expect(inUse.status).toBe(409);
    expect(inUse.headers.get("retry-after")).toBe("1");
    expect(inUse.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    advance(1000);
    const taken = await create(email, "lease-1");
    expect(taken.status).toBe(200);
    expect(taken.headers.get("idempotent-replayed")).toBeNull();
    // Executed again: the subscription exists, so the domain says so; never a second row.
    expect(taken.body.data.createSubscription.errors).toEqual(["User already subscribed to this plan"]);
    expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
    expect((await create(email, "lease-1")).headers.get("idempotent-replayed")).toBe("true");
  });

  it("an invalid key is a 400; queries ignore the header", async () => {
    const bad = await create(freshEmail(), "x".repeat(256));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions.code).toBe("INVALID_IDEMPOTENCY_KEY");
    const q = await gql(app, "{ membershipPlans { id } }", {}, { headers: { "idempotency-key": "q" } });
    expect(q.status).toBe(200);
    expect(await db().idempotencyKey.count({ where: { key: "q" } })).toBe(0);
  });
});
