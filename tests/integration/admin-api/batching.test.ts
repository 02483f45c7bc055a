// No N+1 in the Admin API: the statements a page costs do not grow with its rows or its aliases
// (plan, user and payments are loaded per request in batches, lib/admin-api/loaders.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { addSubscriptionRows } from "./bulk-rows";
import { statementsOf, selectsFrom } from "../../helpers/statements";
import { adminAppForSuite, DEMO_IDS, gql } from "./helpers";

const app = adminAppForSuite();
const LANE = `api_key:${DEMO_IDS.apiKeys.full}`;
const ROWS = 120;

beforeAll(() => addSubscriptionRows(ROWS));

const PAGE = `query Page($first: Int) {
  subscriptions(first: $first) {
    nodes { id state isCancellable planId plan { id name planType } user { id email name } payments { id amount state } }
  }
}`;

async function page(first: number) {
  const { result, sql } = await statementsOf(LANE, () => gql(app, PAGE, { first }));
  expect(result.status).toBe(200);
  expect(result.body.errors).toBeUndefined();
  return { nodes: result.body.data.subscriptions.nodes, sql };
}

describe("Admin API batching (no N+1)", () => {
  it("a page of 100 subscriptions with plan, user and payments costs as many statements as a page of 2", async () => {
    const small = await page(2);
    const large = await page(100);
    expect(large.nodes).toHaveLength(100);
    expect(large.sql.length).toBe(small.sql.length);
    // The page, then one SELECT each for its plans, users and payments, and the settle UPDATEs.
    expect(selectsFrom(large.sql, "Payment")).toHaveLength(1);
    expect(selectsFrom(large.sql, "User")).toHaveLength(1);
    expect(selectsFrom(large.sql, "MembershipPlan")).toHaveLength(1);
    expect(large.sql.length).toBeLessThanOrEqual(8);
  });

  it("returns the right plan, user and payments for every row", async () => {
    const { nodes } = await page(100);
    const rows = await db().subscription.findMany({
      where: { id: { in: nodes.map((n: { id: string }) => n.id) } },
      include: { plan: true, user: true, payments: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const n of nodes) {
      const r = byId.get(n.id)!;
      expect(n.plan).toEqual({ id: r.planId, name: r.plan.name, planType: r.plan.planType });
      expect(n.planId).toBe(r.planId);
      expect(n.user).toEqual({ id: r.userId, email: r.user.email, name: r.user.name });
      expect(n.payments.map((p: { id: string }) => p.id)).toEqual(r.payments.map((p) => p.id));
      expect(n.isCancellable).toBe(r.plan.planType !== "lifetime");
    }
    expect(nodes.filter((n: { payments: unknown[] }) => n.payments.length === 2).length).toBeGreaterThanOrEqual(100);
  });

  it("aliases of the same page share one lookup per kind", async () => {
    // Each alias reads its page (on Postgres they finish in any order); the plan, user and payments
    // of its rows are read once for all three.
    const query = `{
      a: subscriptions(first: 100) { nodes { id plan { name } user { email } payments { id } } }
      b: subscriptions(first: 100) { nodes { id plan { id } user { name } payments { amount } } }
      c: subscriptions(first: 100) { nodes { id isCancellable user { id } payments { state } } }
    }`;
    const { result, sql } = await statementsOf(LANE, () => gql(app, query));
    expect(result.status).toBe(200);
    for (const alias of ["a", "b", "c"]) expect(result.body.data[alias].nodes).toHaveLength(100);
    // The three pages and the request's one settle check (lib/admin-api/loaders.ts).
    expect(selectsFrom(sql, "Subscription")).toHaveLength(3 + 1);
    expect(sql.filter((s) => s.includes("SELECT EXISTS") && s.includes('"cancelAt" <='))).toHaveLength(1);
    expect(selectsFrom(sql, "Payment")).toHaveLength(1);
    expect(selectsFrom(sql, "User")).toHaveLength(1);
    expect(selectsFrom(sql, "MembershipPlan")).toHaveLength(1);
  });

  it("a page selecting only ids reads no plans, users or payments", async () => {
    const { result, sql } = await statementsOf(LANE, () => gql(app, "{ subscriptions(first: 100) { nodes { id } } }"));
    expect(result.body.data.subscriptions.nodes).toHaveLength(100);
    expect(selectsFrom(sql, "Payment")).toHaveLength(0);
    expect(selectsFrom(sql, "User")).toHaveLength(0);
    expect(selectsFrom(sql, "MembershipPlan")).toHaveLength(0);
  });
});
