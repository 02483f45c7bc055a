// A refused request must not have changed anything (issue 29, item 12). An Accept header allowing
// no media type the Admin API answers in is refused with 406 in GraphQL's error format before
// anything is parsed or executed (GraphQL over HTTP: "respond with 406 Not Acceptable and stop
// processing the request"); the MCP transport refuses such a request before any tool runs too.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { rpc, toolCall } from "../mcp/helpers";
import { FULL_KEY, PLANS, adminAppForSuite } from "./helpers";

const app = adminAppForSuite({ now: null });

const create = (email: string) => `mutation { createSubscription(input: { email: "${email}", name: "Accept Test", planId: "${PLANS.monthly}" }) { errors subscription { id } } }`;
const post = (query: string, headers: Record<string, string>) =>
  app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY, ...headers }, body: JSON.stringify({ query }) });
const subscriptionsOf = (email: string) => db().subscription.count({ where: { user: { email } } });

describe("Accept the Admin API cannot answer", () => {
  it.each([["application/xml"], ["text/html"], ["application/json; charset=latin1"], ["image/*"]])("%s: 406 in GraphQL's format, and nothing was executed", async (accept) => {
    const email = `not-acceptable-${accept.replace(/\W/g, "")}@example.com`;
    const res = await post(create(email), { accept });
    expect(res.status).toBe(406);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe("NOT_ACCEPTABLE");
    expect(body.errors[0].message).toMatch(/application\/json/);
    expect(await subscriptionsOf(email)).toBe(0);
  });

  it("a refused request does not claim its Idempotency-Key: the retry with an acceptable Accept creates exactly one", async () => {
    const email = "not-acceptable-retry@example.com";
    const headers = { "idempotency-key": "accept-retry-1" };
    expect((await post(create(email), { ...headers, accept: "application/xml" })).status).toBe(406);
    const retry = await post(create(email), { ...headers, accept: "application/json" });
    expect(retry.status).toBe(200);
    expect((await retry.json()).data.createSubscription.subscription.id).toBeTruthy();
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await subscriptionsOf(email)).toBe(1);
  });

  it("GET is refused the same way", async () => {
    const res = await app.fetch(`/admin/graphql?query=${encodeURIComponent("{ __typename }")}`, { headers: { "x-service-api-key": FULL_KEY, accept: "application/xml" } });
    expect(res.status).toBe(406);
    expect((await res.json()).errors[0].extensions.code).toBe("NOT_ACCEPTABLE");
  });

  it("yoga's own choice still decides: JSON types, wildcards, q-less lists and event streams are answered", async () => {
    for (const accept of ["application/json", "application/graphql-response+json", "*/*", "application/*", "application/xml, application/json", ""]) {
      const res = await post("{ __typename }", accept ? { accept } : {});
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type"), accept).toMatch(/^application\/(graphql-response\+)?json/);
    }
    const sse = await post("{ __typename }", { accept: "text/event-stream" });
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(await sse.text()).toContain('"__typename":"Query"');
  });
});

describe("Accept the MCP server cannot answer", () => {
  it("is refused before the tool runs", async () => {
    const email = "not-acceptable-mcp@example.com";
    const call = toolCall("create_subscription", { email, name: "Accept Test", planId: PLANS.monthly });
    for (const accept of ["application/xml", "application/json", "text/event-stream"]) {
      const res = await rpc(app, call, { authorization: `Bearer ${FULL_KEY}`, accept });
      expect(res.status, accept).toBe(406);
      expect((await res.json()).error.code, accept).toBe(-32000);
    }
    expect(await subscriptionsOf(email)).toBe(0);
  });
});
