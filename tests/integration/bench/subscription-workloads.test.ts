// The bench's workloads on existing subscriptions (bench/workloads.ts SUBSCRIPTION_WORKLOADS and
// mcp-list-subscriptions) against the real Admin API and MCP server, on the pool bench/prepare-db.ts
// writes (bench/subscription-pool.ts): each workload's own probe must accept what the service
// answers, so a full bench run measures these requests rather than reporting them unavailable, and
// each request does what the workload's name says. PGlite, and Postgres with TEST_DATABASE_URL.
import { describe, expect, it } from "vitest";
import { deepSubscriptionCursor, subscriptionPool, subscriptionPoolStatements } from "@/bench/subscription-pool";
import { SUBSCRIPTION_CHECKS, SUBSCRIPTION_DOCUMENTS, UPDATED_SUBSCRIPTIONS, WORKLOADS, type WorkloadContext } from "@/bench/workloads";
import type { PreparedCredentials } from "@/bench/prepare-db";
import { decodeTimeCursor } from "@/lib/core/time-cursor";
import { db } from "@/lib/db/client";
import { DEMO_IDS, FULL_KEY } from "../admin-api/helpers";
import { appForSuite } from "../../helpers/app-for-suite";

const POOL = { schoolId: DEMO_IDS.school, planId: DEMO_IDS.plans.monthly, count: UPDATED_SUBSCRIPTIONS + 5, tag: "wl" };
const app = appForSuite({
  now: null,
  prepare: async () => {
    for (const sql of subscriptionPoolStatements(POOL)) await db().$executeRawUnsafe(sql);
  },
});

const context = async (): Promise<WorkloadContext> => ({
  origin: app.url,
  runId: "test",
  connections: 1,
  creds: {
    countedKeys: [FULL_KEY],
    enforcedKeys: [FULL_KEY],
    subscriptionPool: { ...subscriptionPool(POOL), deepCursor: await deepSubscriptionCursor(db(), DEMO_IDS.school) },
  } as unknown as PreparedCredentials,
});

const post = async (body: string) => {
  const res = await app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY }, body });
  expect(res.status).toBe(200);
  return (await res.json()) as unknown;
};

describe("the subscription pool", () => {
  it("writes the ids and emails the workloads derive, live monthly subscriptions the school collects itself", async () => {
    const { ids, emails } = subscriptionPool(POOL);
    const rows = await db().$queryRawUnsafe<{ id: string; email: string; state: string; collectionMethod: string; live: boolean }[]>(
      `SELECT s."id", u."email", s."state"::text AS "state", s."collectionMethod"::text AS "collectionMethod",
              (s."currentPeriodStart" < now() AND s."currentPeriodEnd" > now()) AS "live"
         FROM "Subscription" s JOIN "User" u ON u."id" = s."userId" WHERE s."id" = ANY($1::uuid[])`,
      ids,
    );
    expect(rows).toHaveLength(POOL.count);
    const emailById = new Map(rows.map((r) => [r.id, r.email]));
    ids.forEach((id, i) => expect(emailById.get(id)).toBe(emails[i]));
    expect(rows.every((r) => r.state === "active" && r.collectionMethod === "external" && r.live)).toBe(true);
  });

  it("has a deep cursor seven eighths into the school's subscriptions", async () => {
    const cursor = await deepSubscriptionCursor(db(), DEMO_IDS.school);
    const { createdAt, id } = decodeTimeCursor(cursor!);
    const [counts] = await db().$queryRawUnsafe<{ before: number; total: number }[]>(
      `SELECT count(*) FILTER (WHERE ("createdAt", "id") < ($2::timestamptz, $3::uuid))::int AS "before", count(*)::int AS "total"
         FROM "Subscription" WHERE "schoolId" = $1::uuid`,
      DEMO_IDS.school,
      createdAt,
      id,
    );
    expect(counts!.before).toBe(Math.floor((counts!.total * 7) / 8));
  });
});

describe("the workloads against the service", () => {
  it("each probe is accepted: the six workloads are measured, not reported unavailable", async () => {
    const ctx = await context();
    for (const id of ["subscriptions-page", "subscriptions-deep-page", "subscriptions-by-email", "update-subscription", "cancel-subscription", "mcp-list-subscriptions"]) {
      const w = WORKLOADS.find((x) => x.id === id);
      expect(w, id).toBeDefined();
      const prepared = await w!.prepare(ctx);
      expect(prepared, id).toHaveProperty("spec");
    }
  });

  it("reads a member's subscriptions by email", async () => {
    const { ids, emails } = subscriptionPool(POOL);
    const body = (await post(SUBSCRIPTION_DOCUMENTS.byEmail(emails[3]!))) as { data: { subscriptions: { nodes: { id: string }[] } } };
    expect(SUBSCRIPTION_CHECKS.page(1)(body)).toBe(true);
    expect(body.data.subscriptions.nodes.map((n) => n.id)).toEqual([ids[3]]);
  });

  it("a deep page starts after the cursor", async () => {
    const cursor = (await deepSubscriptionCursor(db(), DEMO_IDS.school))!;
    const body = (await post(SUBSCRIPTION_DOCUMENTS.page(cursor))) as { data: { subscriptions: { nodes: { id: string }[] } } };
    expect(SUBSCRIPTION_CHECKS.page(1)(body)).toBe(true);
    expect(body.data.subscriptions.nodes.map((n) => n.id)).not.toContain(decodeTimeCursor(cursor).id);
  });

  it("updates a period end, and cancels at once, only once", async () => {
    const { ids } = subscriptionPool(POOL);
    const end = Math.floor(Date.now() / 1000) + 40 * 24 * 3600;
    const updated = (await post(SUBSCRIPTION_DOCUMENTS.update(ids[0]!, end))) as { data: { updateSubscription: { subscription: { currentPeriodEnd: number } } } };
    expect(SUBSCRIPTION_CHECKS.payload("updateSubscription")(updated)).toBe(true);
    expect(updated.data.updateSubscription.subscription.currentPeriodEnd).toBe(end);

    const target = ids[UPDATED_SUBSCRIPTIONS + 4]!;
    const canceled = await post(SUBSCRIPTION_DOCUMENTS.cancel(target));
    expect(SUBSCRIPTION_CHECKS.payload("cancelSubscription", "canceled")(canceled)).toBe(true);
    expect((await db().subscription.findUniqueOrThrow({ where: { id: target } })).state).toBe("canceled");
    // A repeat would not be measured as a cancellation: the workload never sends one.
    expect(SUBSCRIPTION_CHECKS.payload("cancelSubscription", "canceled")(await post(SUBSCRIPTION_DOCUMENTS.cancel(target)))).toBe(false);
  });
});
