// Operation limits on /admin/graphql (issue 11, finding 1 and 8): refused before execution with a
// 400 naming the limit; what the spec recommends (batches of 20-50 mutations, pages of 50-100) passes.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { OPERATION_LIMITS } from "@/lib/admin-api/operation-limits";
import { FULL_KEY, PLANS, SUB_FIELDS, adminAppForSuite, freshEmail, gql } from "./helpers";

const app = adminAppForSuite({ now: null });

const post = (body: string, headers: Record<string, string> = {}) =>
  app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY, ...headers }, body });

async function expectLimit(query: string, code: string, variables: Record<string, unknown> = {}) {
  for (const accept of ["application/json", "application/graphql-response+json"]) {
    const r = await gql(app, query, variables, { headers: { accept } });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe(code);
    expect(r.body.data).toBeUndefined();
    // Refused before execution: no budget charged, no limiter state.
    expect(r.body.extensions?.rate_limit).toBeUndefined();
  }
}

const PAGE_NODE = `id state startAt currentPeriodEnd user { id email name } plan { id name price currency } payments { id amount currency state paidAt }`;

describe("operation limits", () => {
  it("refuses aliased full pages (the freeze of finding 1) before executing them", async () => {
    const one = (i: number) => `a${i}: subscriptions(first: 100) { nodes { id user { email } plan { name } payments { id } } }`;
    const many = (n: number) => `{ ${Array.from({ length: n }, (_, i) => one(i)).join(" ")} }`;
    await expectLimit(many(500), "QUERY_TOO_LARGE");
    await expectLimit(many(10), "QUERY_TOO_COMPLEX");
  });

  it("counts the page size whether written, given by a variable, or left to the default", async () => {
    const aliases = (arg: string) => Array.from({ length: 8 }, (_, i) => `a${i}: subscriptions${arg} { nodes { ${PAGE_NODE} } }`).join(" ");
    await expectLimit(`{ ${aliases("(first: 100)")} }`, "QUERY_TOO_COMPLEX");
    await expectLimit(`query($n: Int) { ${aliases("(first: $n)")} }`, "QUERY_TOO_COMPLEX", { n: 100 });
    await expectLimit(`{ ${aliases("")} ${aliases("(first: 50)").replace(/a(\d)/g, "b$1")} }`, "QUERY_TOO_COMPLEX");
  });

  it("refuses too many aliases, too deep, too many directives, too many tokens, too much nesting", async () => {
    await expectLimit(`{ ${Array.from({ length: 65 }, (_, i) => `a${i}: __typename`).join(" ")} }`, "TOO_MANY_ALIASES");
    await expectLimit(`{ __typename ${"@skip(if: false) ".repeat(21)} }`, "TOO_MANY_DIRECTIVES");
    await expectLimit(`{ ${"__typename ".repeat(OPERATION_LIMITS.maxTokens + 1)} }`, "QUERY_TOO_LARGE");
    await expectLimit(`{ subscription(id: "x") { ${"plan { ".repeat(0)}id } ${"__type(name: \"Query\") { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }"} }`, "QUERY_TOO_DEEP");
  });

  it("never overflows the parser's stack: deep lists and selections are a 400, not a 500", async () => {
    const lists = `{ subscription(id: ${"[".repeat(3000)}"x"${"]".repeat(3000)}) { id } }`;
    const selections = `{ ${"a { ".repeat(3000)}b${" }".repeat(3000)} }`;
    for (const q of [lists, selections]) {
      const r = await post(JSON.stringify({ query: q }));
      expect(r.status).toBe(400);
      expect((await r.json()).errors[0].extensions.code).toMatch(/QUERY_TOO_(NESTED|LARGE)/);
    }
  });

  it("admits what the spec recommends: a page of 100 with every field, and a batch of 50 aliased mutations", async () => {
    const page = await gql(app, `{ subscriptions(first: 100) { nodes { ${PAGE_NODE} } pageInfo { hasNextPage endCursor } } }`);
    expect(page.status).toBe(200);
    expect(page.body.errors).toBeUndefined();
    expect(page.body.extensions.cost.requestedQueryCost).toBeGreaterThan(1000);
    expect(page.body.extensions.cost.maximumQueryCost).toBe(OPERATION_LIMITS.maxCost);
    expect(page.body.extensions.rate_limit).toBeDefined();

    const emails = Array.from({ length: 50 }, () => freshEmail("batch"));
    const batch = `mutation { ${emails
      .map((e, i) => `m${i}: createSubscription(input: { email: "${e}", name: "Batch ${i}", planId: "${PLANS.monthly}" }) { errors subscription { ${SUB_FIELDS} } }`)
      .join(" ")} }`;
    const r = await gql(app, batch);
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(Object.keys(r.body.data)).toHaveLength(50);
    expect(await db().user.count({ where: { email: { in: emails } } })).toBe(50);
  });
});

describe("request shape", () => {
  it("non-JSON variables or extensions over GET are a 400, not a 500", async () => {
    for (const qs of ["variables=x", "variables=%5B1%5D", "extensions=x", "variables=%7B"]) {
      const r = await app.fetch(`/admin/graphql?query=${encodeURIComponent("{ __typename }")}&${qs}`, {
        headers: { "x-service-api-key": FULL_KEY, accept: "application/json" },
      });
      expect(r.status, qs).toBe(400);
      expect((await r.json()).errors[0].message).toEqual(expect.any(String));
    }
  });

  it("a JSON syntax error exposes no originalError or stack", async () => {
    for (const body of ["{ not json", '{"query": "{ __typename }", "variables": "x"}', '{"query": "{ __typename }", "extensions": 5}']) {
      const r = await post(body);
      expect(r.status).toBe(400);
      const text = await r.text();
      expect(text).not.toMatch(/originalError|stack|at .*\.js|node_modules/);
    }
  });

  it("refuses U+0000 in string literals and variables before executing (400, nothing written)", async () => {
    const email = freshEmail("nul");
    const literal = `mutation { createSubscription(input: { email: "${email}", name: "Zap\\u0000ier", planId: "${PLANS.monthly}" }) { errors } }`;
    const a = await gql(app, literal);
    expect(a.status).toBe(400);
    expect(a.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    const b = await gql(app, `mutation($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors } }`, {
      input: { email, name: "Zap\u0000ier", planId: PLANS.monthly },
    });
    expect(b.status).toBe(400);
    expect(b.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
  });
});
