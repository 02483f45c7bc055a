// Request JSON of any width or depth (issue 29, item 17): half a million array elements crashed the
// Admin API with a RangeError (a spread into push), and deep nesting crashed the idempotency
// fingerprint (JSON.stringify). Every JSON reader bounds nesting at MAX_JSON_DEPTH (400 in the
// endpoint's own format) and checks any width iteratively.
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/lib/http/body";
import { db } from "@/lib/db/client";
import { DEFAULT_DEMO_API_KEY, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";

const app = appForSuite({ now: null });
const wide = `[${"1,".repeat(500_000)}1]`;
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

const admin = (body: string, headers: Record<string, string> = {}) =>
  app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": DEFAULT_DEMO_API_KEY, ...headers }, body });
const mcp = (body: string) =>
  app.fetch("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${DEFAULT_DEMO_API_KEY}` },
    body,
  });

describe("request JSON of any width or depth", () => {
  it("Admin API: a 500,001-element array in extensions or variables is answered, not a 500", async () => {
    for (const key of ["extensions", "variables"]) {
      const res = await admin(`{"query":"{__typename}","${key}":{"x":${wide}}}`);
      expect(res.status, key).toBe(200);
      expect((await res.json()).data).toEqual({ __typename: "Query" });
    }
    // With an Idempotency-Key the variables are fingerprinted too.
    const res = await admin(`{"query":"mutation { __typename }","variables":{"x":${wide}}}`, { "idempotency-key": "wide-variables" });
    expect(res.status).toBe(200);
  });

  it(`Admin API: JSON nested deeper than ${MAX_JSON_DEPTH} levels is a 400 in GraphQL's format, before anything runs`, async () => {
    const before = await db().subscription.count();
    const create = `mutation { createSubscription(input: { email: "deep.json@example.com", name: "Deep", planId: "${DEMO_IDS.plans.monthly}" }) { subscription { id } } }`;
    for (const [where, body, headers] of [
      ["extensions", `{"query":"{__typename}","extensions":{"x":${deep(100_000)}}}`, {}],
      ["variables", `{"query":${JSON.stringify(create)},"variables":{"x":${deep(100_000)}}}`, { "idempotency-key": "deep-variables" }],
      ["batch", `[{"query":"{__typename}","variables":{"x":${deep(MAX_JSON_DEPTH)}}}]`, {}],
    ] as const) {
      const res = await admin(body, headers);
      expect(res.status, where).toBe(400);
      const json = await res.json();
      expect(json.errors[0], where).toMatchObject({ message: `JSON must not nest deeper than ${MAX_JSON_DEPTH} levels.`, extensions: { code: "BAD_REQUEST", limit: MAX_JSON_DEPTH } });
    }
    const get = await app.fetch(`/admin/graphql?query=${encodeURIComponent("{__typename}")}&extensions=${encodeURIComponent(`{"x":${deep(1000)}}`)}`, { headers: { "x-service-api-key": DEFAULT_DEMO_API_KEY } });
    expect(get.status).toBe(400);
    expect(await db().subscription.count()).toBe(before);
    // Within the bound, nesting is fine.
    const ok = await admin(`{"query":"{__typename}","extensions":{"x":${deep(MAX_JSON_DEPTH - 2)}}}`);
    expect(ok.status).toBe(200);
  });

  it("MCP: wide arguments are checked by the tool's schema; deep ones are a JSON-RPC 400", async () => {
    const w = await mcp(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_catalog","arguments":{"query":${wide}}}}`);
    expect(w.status).toBeLessThan(500);
    const d = await mcp(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_subscription","arguments":{"email":"a@b.c","name":"x","planId":"${DEMO_IDS.plans.monthly}","idempotency_key":"k","extra":${deep(100_000)}}}}`);
    expect(d.status).toBe(400);
    expect(await d.json()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: `JSON must not nest deeper than ${MAX_JSON_DEPTH} levels.` } });
  });

  it("OAuth registration: deep JSON is invalid_client_metadata", async () => {
    const res = await app.fetch("/api/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: `{"client_name":"Zapier","redirect_uris":${deep(5000)}}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_client_metadata", error_description: `JSON must not nest deeper than ${MAX_JSON_DEPTH} levels.` });
  });
});
