// Real concurrency needs real Postgres: the partial unique index decides, not a read-then-write check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { CREATE, DEMO_IDS, PLANS, gql } from "../integration/admin-api/helpers";

let app: AppServer;
beforeAll(async () => {
  await seedDemo({ prisma: db() });
  // The race under test is the database's; with enforcement on, the rate limiter would refuse all
  // but 10 of the 50 concurrent calls (operations in flight per key) before they got there.
  await db().apiKey.update({ where: { id: DEMO_IDS.apiKeys.full }, data: { enforceLimits: false } });
  app = await startAppServer();
});
afterAll(() => app.close());

describe("createSubscription under concurrency (Postgres)", () => {
  // A new user: the concurrent inserts of the user row queue behind the first one.
  // An existing user: nothing queues, and only the partial unique index stops the duplicates.
  it.each([
    ["a new user", "race@example.com"],
    ["an existing user", "manager@schoolhouse.test"],
  ])("50 identical concurrent calls for %s: exactly one subscription and 49 'User already subscribed to this plan'", async (_, email) => {
    const input = { email, name: "Race Condition", planId: PLANS.monthly };
    const results = await Promise.all(Array.from({ length: 50 }, () => gql(app, CREATE, { input })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const payloads = results.map((r) => r.body.data.createSubscription);
    const ok = payloads.filter((p) => p.errors.length === 0);
    const dup = payloads.filter((p) => p.errors[0] === "User already subscribed to this plan");
    expect(ok).toHaveLength(1);
    expect(dup).toHaveLength(49);
    for (const p of dup) expect(p).toEqual({ errors: ["User already subscribed to this plan"], subscription: null });
    expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
    expect(await db().user.count({ where: { email } })).toBe(1);
  });

  it("concurrent repeats with one Idempotency-Key execute once", async () => {
    const input = { email: "idem-race@example.com", name: "Idem Race", planId: PLANS.bootcamp };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => gql(app, CREATE, { input }, { headers: { "idempotency-key": "race-key" } })),
    );
    const statuses = results.map((r) => r.status).sort();
    // The first executes; the rest replay it or are told it is still in progress (409).
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(await db().subscription.count({ where: { user: { email: "idem-race@example.com" } } })).toBe(1);
    for (const r of results.filter((x) => x.status === 200)) {
      expect(r.body.data.createSubscription.errors).toEqual([]);
    }
  });
});
