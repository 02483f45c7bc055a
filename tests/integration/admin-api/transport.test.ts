import { describe, expect, it } from "vitest";
import { serverAudits } from "graphql-http";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { CREATE, FULL_KEY, PLANS, freshEmail, gql, adminAppForSuite } from "./helpers";

const app = adminAppForSuite({ now: null });
const BUDGET_HEADERS = ["ratelimit", "ratelimit-policy", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after"];

const post = (body: string, headers: Record<string, string> = {}) =>
  app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY, ...headers }, body });

describe("GraphQL over HTTP", () => {
  it("passes graphql-http's server audit (every MUST)", async () => {
    const audits = serverAudits({
      url: `${app.url}/admin/graphql`,
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        headers.set("x-service-api-key", FULL_KEY);
        return fetch(input, { ...init, headers });
      },
    });
    const failures: string[] = [];
    for (const audit of audits) {
      if (!audit.name.startsWith("MUST")) continue;
      const result = await audit.fn();
      if (result.status !== "ok") failures.push(`${audit.name}: ${result.reason}`);
    }
    expect(failures).toEqual([]);
  });

  it("malformed JSON is a 400 with a top-level errors array", async () => {
    const r = await post("{ not json");
    expect(r.status).toBe(400);
    expect((await r.json()).errors[0].message).toEqual(expect.any(String));
  });

  it("a body without query is a 400 with a top-level errors array", async () => {
    for (const body of [{ variables: {} }, { query: "" }, { query: 42 }]) {
      for (const accept of ["application/json", "application/graphql-response+json"]) {
        const r = await post(JSON.stringify(body), { accept });
        expect(r.status).toBe(400);
        expect((await r.json()).errors.length).toBeGreaterThan(0);
      }
    }
  });

  it("a syntax error: 400 for application/graphql-response+json, 200 with errors and no data for application/json", async () => {
    const body = JSON.stringify({ query: "mutation { createSubscription(" });
    const strict = await post(body, { accept: "application/graphql-response+json" });
    expect(strict.status).toBe(400);
    expect((await strict.json()).errors[0].message).toMatch(/Syntax Error/);
    const legacy = await post(body, { accept: "application/json" });
    expect(legacy.status).toBe(200);
    const json = await legacy.json();
    expect(json.data).toBeUndefined();
    expect(json.errors[0].message).toMatch(/Syntax Error/);
  });

  it("a validation error (unknown field) is a 400 for application/graphql-response+json", async () => {
    const r = await post(JSON.stringify({ query: "{ nope }" }), { accept: "application/graphql-response+json" });
    expect(r.status).toBe(400);
    expect((await r.json()).errors[0].message).toMatch(/Cannot query field "nope"/);
  });

  it("a mutation over GET is refused with 405 and does not execute", async () => {
    const email = freshEmail("get");
    const q = `mutation { createSubscription(input: {email: "${email}", name: "G", planId: "${PLANS.monthly}"}) { errors } }`;
    const r = await app.fetch(`/admin/graphql?query=${encodeURIComponent(q)}`, {
      headers: { "x-service-api-key": FULL_KEY, accept: "application/graphql-response+json" },
    });
    expect(r.status).toBe(405);
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
  });

  it("a query over GET works", async () => {
    const r = await app.fetch(`/admin/graphql?query=${encodeURIComponent("{ membershipPlans { id } }")}`, {
      headers: { "x-service-api-key": FULL_KEY, accept: "application/json" },
    });
    expect(r.status).toBe(200);
    expect((await r.json()).data.membershipPlans).toHaveLength(5);
  });

  it("answers application/graphql-response+json when asked", async () => {
    const r = await post(JSON.stringify({ query: "{ membershipPlans { id } }" }), { accept: "application/graphql-response+json" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
  });

  it("mutations combine through aliases; each runs in its own transaction", async () => {
    const ok = freshEmail("alias");
    const r = await gql(
      app,
      `mutation Two($a: AdminCreateSubscriptionInput!, $b: AdminCreateSubscriptionInput!, $c: AdminCreateSubscriptionInput!) {
        first: createSubscription(input: $a) { errors subscription { id planId } }
        second: createSubscription(input: $b) { errors subscription { id } }
        third: createSubscription(input: $c) { errors subscription { id planId } }
      }`,
      {
        a: { email: ok, name: "A", planId: PLANS.monthly },
        b: { email: freshEmail("alias-bad"), name: "B", planId: "5c400000-0000-4000-8000-0003000000ff" },
        c: { email: ok, planId: PLANS.lifetime },
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.first.errors).toEqual([]);
    expect(r.body.data.second).toEqual({ errors: ["Plan not found"], subscription: null });
    expect(r.body.data.third.errors).toEqual([]);
    expect(await db().subscription.count({ where: { user: { email: ok } } })).toBe(2);
  });

  it("echoes the API-Version it served", async () => {
    const r = await gql(app, "{ membershipPlans { id } }");
    expect(r.headers.get("api-version")).toBe("2026-01");
  });
});

describe("API-Version", () => {
  it("absent or 2026-01 is accepted", async () => {
    expect((await gql(app, "{ membershipPlans { id } }")).status).toBe(200);
    expect((await gql(app, "{ membershipPlans { id } }", {}, { headers: { "api-version": "2026-01" } })).status).toBe(200);
  });

  it("anything else is a 400 listing the accepted values, before anything executes", async () => {
    const email = freshEmail("version");
    for (const v of ["2025-12", "latest", "v1", "2026-01-01"]) {
      const r = await gql(app, CREATE, { input: { email, name: "V", planId: PLANS.monthly } }, { headers: { "api-version": v } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        errors: [
          {
            message: `Unsupported API-Version "${v}". Accepted values: 2026-01 (omit the header for 2026-01).`,
            extensions: { code: "INVALID_API_VERSION", acceptedVersions: ["2026-01"] },
          },
        ],
      });
      for (const h of BUDGET_HEADERS) expect(r.headers.get(h)).toBeNull();
    }
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
  });
});

describe("authentication", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["no key", {}, "Missing API key: send it in the X-Service-API-Key header."],
    ["an empty key", { "x-service-api-key": "" }, "Missing API key: send it in the X-Service-API-Key header."],
    ["a malformed key", { "x-service-api-key": "hello" }, "Invalid API key."],
    ["an unknown prefix", { "x-service-api-key": "sh_unknown1_demo-admin-key-all-permissions-dev-only" }, "Invalid API key."],
    ["a known prefix with a wrong secret", { "x-service-api-key": "sh_demofull_demo-admin-key-all-permissions-dev-onlX" }, "Invalid API key."],
    [
      "only an OAuth bearer token",
      { authorization: "Bearer some-oauth-access-token" },
      "OAuth access tokens are not accepted by the Admin API while it is in preview: send an API key in the X-Service-API-Key header.",
    ],
  ];
  for (const [name, headers, message] of cases) {
    it(`${name}: 401 with extensions.code UNAUTHENTICATED, no budget headers, nothing executed`, async () => {
      const email = freshEmail("auth");
      const r = await gql(app, CREATE, { input: { email, name: "A", planId: PLANS.monthly } }, { key: null, headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ errors: [{ message, extensions: { code: "UNAUTHENTICATED" } }] });
      for (const h of BUDGET_HEADERS) expect(r.headers.get(h)).toBeNull();
      expect(await db().user.findUnique({ where: { email } })).toBeNull();
    });
  }

  it("a revoked key is refused", async () => {
    await db().apiKey.update({ where: { id: DEMO_IDS.apiKeys.acmeFull }, data: { revokedAt: now() } });
    try {
      const r = await gql(app, "{ membershipPlans { id } }", {}, { key: "sh_acmefull_acme-admin-key-all-permissions-dev-only" });
      expect(r.status).toBe(401);
      expect(r.body.errors[0]).toEqual({ message: "This API key has been revoked.", extensions: { code: "UNAUTHENTICATED" } });
    } finally {
      await db().apiKey.update({ where: { id: DEMO_IDS.apiKeys.acmeFull }, data: { revokedAt: null } });
    }
  });

  it("an expired key is refused", async () => {
    await db().apiKey.update({ where: { id: DEMO_IDS.apiKeys.acmeFull }, data: { expiresAt: new Date(now().getTime() - 1000) } });
    try {
      const r = await gql(app, "{ membershipPlans { id } }", {}, { key: "sh_acmefull_acme-admin-key-all-permissions-dev-only" });
      expect(r.status).toBe(401);
      expect(r.body.errors[0].message).toBe("This API key has expired.");
    } finally {
      await db().apiKey.update({ where: { id: DEMO_IDS.apiKeys.acmeFull }, data: { expiresAt: null } });
    }
  });

  it("a valid key with an OAuth bearer token as well is authenticated by the key", async () => {
    const r = await gql(app, "{ membershipPlans { id } }", {}, { headers: { authorization: "Bearer x" } });
    expect(r.status).toBe(200);
  });

  it("records when a key was last used", async () => {
    await gql(app, "{ membershipPlans { id } }");
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: DEMO_IDS.apiKeys.full } });
    expect(row.lastUsedAt).not.toBeNull();
  });
});

describe("playground", () => {
  it("GET with Accept: text/html serves GraphiQL with no external scripts, prefilled for X-Service-API-Key", async () => {
    const r = await app.fetch("/admin/graphql", { headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await r.text();
    expect(html).not.toMatch(/<script[^>]+src="(?!\/admin\/graphql\/assets\/)/i);
    expect(html).not.toMatch(/<link[^>]+stylesheet[^>]+href="https?:/i);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs/);
    expect(html).toContain("X-Service-API-Key");
    for (const op of ["createSubscription", "updateSubscription", "cancelSubscription", "enrollStudentToCourse", "membershipPlans", "subscriptions", "courses"]) {
      expect(html).toContain(op);
    }
    const etag = r.headers.get("etag")!;
    const again = await app.fetch("/admin/graphql", { headers: { accept: "text/html", "if-none-match": etag } });
    expect(again.status).toBe(304);
  });
});
