// A plain tools/call POST skips the SDK's HTTP transport (lib/mcp/direct-call.ts) and must answer
// exactly as the transport does. Differential and property-based: the same generated requests
// (plain calls and hostile ones: bad envelopes, batches, notifications, _meta, unknown tools, bad
// arguments, odd ids, wrong Accept, Content-Type or protocol version headers) go to the handler
// with the direct path and to one that always uses the transport; status, headers and body must
// match. Writes are generated only as dry runs, so both handlers see the same data.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setNow } from "@/lib/clock";
import { hashSecret, randomToken } from "@/lib/credentials/secret";
import { db } from "@/lib/db/client";
import { ACME_API_KEY, DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { TOOL_ACCESS } from "@/lib/mcp/access";
import { createMcpHandler } from "@/lib/mcp/handler";
import { requestContext } from "@/lib/tenancy/request-context";
import { ALL_SCOPES } from "./helpers";

const direct = createMcpHandler();
const viaTransport = createMcpHandler({ directPath: false });

const URL_ = "http://localhost/mcp";
const bearers: Record<string, string> = { full: DEFAULT_DEMO_API_KEY, none: DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, acme: ACME_API_KEY, garbage: "not-a-token" };

/** An access token for /mcp as the token endpoint would issue it (demo-public-app, this origin). */
async function accessToken(userId: string, scope: string): Promise<string> {
  const issuer = requestContext(new Request(URL_, { headers: { host: "localhost" } })).origin;
  const token = randomToken();
  const grant = await db().oAuthGrant.create({ data: { clientId: "demo-public-app", userId, schoolId: DEMO_IDS.school, scope, issuer } });
  await db().oAuthAccessToken.create({
    data: { tokenHash: hashSecret(token), grantId: grant.id, clientId: "demo-public-app", scope, audience: `${issuer}/mcp`, expiresAt: new Date(Date.now() + 3_600_000) },
  });
  return token;
}

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  // Dry runs show would-be timestamps: both answers must see the same clock.
  setNow(new Date("2026-11-21T12:00:00Z"));
  bearers.student = await accessToken(DEMO_IDS.users.student, ALL_SCOPES);
  bearers.admin = await accessToken(DEMO_IDS.users.admin, ALL_SCOPES);
  bearers.adminNarrow = await accessToken(DEMO_IDS.users.admin, "openid courses:read");
});

const WRITES = new Set(Object.entries(TOOL_ACCESS).flatMap(([name, a]) => (a.writes ? [name] : [])));
const tools = ["search_catalog", "get_page", "list_membership_plans", "get_my_profile", "list_my_subscriptions", "list_subscriptions", "create_subscription", "list_webhook_endpoints", "nope", "", 42, "__proto__", "toString"];
const args = [
  { query: "sql" },
  { query: "sql", limit: 2, kind: "course" },
  { query: "" },
  { query: 5 },
  { query: "x".repeat(201) },
  { query: "a", limit: 0 },
  { query: "a", unknown: true },
  {},
  { kind: "faq" },
  { kind: "course", slug: "no-such-course" },
  { url: "http://localhost/faq" },
  { url: "https://evil.example/x" },
  { first: 2 },
  { first: "x" },
  { email: "dry.run@example.com", name: "Dry Run", planId: DEMO_IDS.plans.monthly },
  { email: "not-an-email", name: "", planId: "nope" },
];
/** Usually the plain call's value (so whole requests are often plain), else one of the others. */
const mostly = <T>(plain: T, ...others: T[]) => fc.oneof({ weight: 7, arbitrary: fc.constant(plain) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
const message = fc.record({
  jsonrpc: mostly<unknown>("2.0", "1.0", 2, undefined),
  id: fc.oneof({ weight: 7, arbitrary: fc.constantFrom<unknown>(1, 7, "a", "", 0, -3) }, { weight: 1, arbitrary: fc.constantFrom<unknown>(1.5, null, 2 ** 53, 1e300, undefined, { x: 1 }) }),
  method: mostly<unknown>("tools/call", "tools/list", "ping", "initialize", "resources/list", "nope", undefined),
  name: fc.oneof({ weight: 7, arbitrary: fc.constantFrom<unknown>(...tools.slice(0, 8)) }, { weight: 1, arbitrary: fc.constantFrom<unknown>(...tools.slice(8)) }),
  arguments: fc.oneof({ weight: 7, arbitrary: fc.constantFrom<unknown>(...args) }, { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, [1], "x", 3) }),
  // Envelope oddities the transport answers (or parses) its own way.
  oddity: mostly(
    "none",
    "extraKey",
    "meta",
    "progress",
    "task",
    "paramsExtra",
    "paramsArray",
    "noParams",
    "batch1",
    "batch2",
    "bigBatch",
    "invalidJson",
    "emptyBody",
    "null",
  ),
});
const request = fc.record({
  message,
  bearer: fc.oneof({ weight: 7, arbitrary: fc.constantFrom("full", "admin", "student", "none") }, { weight: 1, arbitrary: fc.constantFrom("acme", "garbage", "adminNarrow", "missing") }),
  accept: mostly<string | undefined>(
    "application/json, text/event-stream",
    "text/event-stream, application/json",
    "application/json",
    "text/event-stream",
    "*/*",
    "application/json;q=0.9, text/event-stream;q=0.1",
    undefined,
  ),
  contentType: mostly<string | undefined>(
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON",
    "application/json;charset=UTF-8",
    "text/plain",
    "text/plain; a=application/json",
    "application/json-patch+json",
    undefined,
  ),
  version: mostly<string | undefined>("2025-06-18", "2025-03-26", "2024-11-05", undefined, "1999-01-01", ""),
  sessionId: mostly<string | undefined>(undefined, "abc"),
});
type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never;

function bodyOf(m: Generated["message"]): string {
  let args = m.arguments;
  // Writes only as dry runs: both handlers must see the same data.
  if (typeof m.name === "string" && WRITES.has(m.name) && args && typeof args === "object" && !Array.isArray(args)) args = { ...args, dry_run: true };
  const params: Record<string, unknown> = { name: m.name };
  if (args !== undefined) params.arguments = args;
  const msg: Record<string, unknown> = {};
  if (m.jsonrpc !== undefined) msg.jsonrpc = m.jsonrpc;
  if (m.id !== undefined) msg.id = m.id;
  if (m.method !== undefined) msg.method = m.method;
  msg.params = params;
  switch (m.oddity) {
    case "extraKey":
      msg.result = {};
      break;
    case "meta":
      params._meta = {};
      break;
    case "progress":
      params._meta = { progressToken: 1 };
      break;
    case "task":
      params.task = { ttl: 1000 };
      break;
    case "paramsExtra":
      params.cursor = "x";
      break;
    case "paramsArray":
      msg.params = [params];
      break;
    case "noParams":
      delete msg.params;
      break;
    case "batch1":
      return JSON.stringify([msg]);
    case "batch2":
      return JSON.stringify([msg, { ...msg, id: typeof msg.id === "number" ? msg.id + 1 : "second" }]);
    case "bigBatch":
      return JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ ...msg, id: i })));
    case "invalidJson":
      return JSON.stringify(msg).slice(0, -1);
    case "emptyBody":
      return "";
    case "null":
      return "null";
  }
  return JSON.stringify(msg);
}

function toRequest(g: Generated): Request {
  const headers: Record<string, string> = { host: "localhost" };
  if (g.bearer !== "missing") headers.authorization = `Bearer ${bearers[g.bearer]}`;
  if (g.accept !== undefined) headers.accept = g.accept;
  if (g.contentType !== undefined) headers["content-type"] = g.contentType;
  if (g.version !== undefined) headers["mcp-protocol-version"] = g.version;
  if (g.sessionId !== undefined) headers["mcp-session-id"] = g.sessionId;
  return new Request(URL_, { method: "POST", headers, body: bodyOf(g.message) });
}

// The runtime budget left and its reset move between two requests; the header names and every
// other value must match.
const VARYING = new Set(["ratelimit-remaining", "ratelimit-reset"]);

// A dry run's would-be ids are new each time.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function answer(handler: (r: Request) => Promise<Response>, g: Generated) {
  const res = await handler(toRequest(g));
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== "date").map(([name, value]) => [name, VARYING.has(name) ? "(varies)" : value]));
  const body = await res.text();
  return { status: res.status, headers, body: body.includes('"dryRun":true') ? body.replace(UUID, "(uuid)") : body };
}

const plain: Generated = {
  message: { jsonrpc: "2.0", id: 1, method: "tools/call", name: "search_catalog", arguments: { query: "sql" }, oddity: "none" },
  bearer: "full",
  accept: "application/json, text/event-stream",
  contentType: "application/json",
  version: "2025-06-18",
  sessionId: undefined,
};

afterAll(() => setNow(null));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the MCP direct path answers as the SDK transport does", () => {
  it("for generated requests, plain and hostile (status, headers, body)", async () => {
    const transport = vi.spyOn(WebStandardStreamableHTTPServerTransport.prototype, "handleRequest");
    let answeredDirectly = 0;
    let answeredByTransport = 0;
    await fc.assert(
      fc.asyncProperty(request, async (g) => {
        transport.mockClear();
        const got = await answer(direct, g);
        if (transport.mock.calls.length > 0) answeredByTransport++;
        else if (got.status === 200) answeredDirectly++;
        expect(got).toEqual(await answer(viaTransport, g));
      }),
      { seed: 1531, numRuns: 300 },
    );
    // Both paths are exercised, so the comparison is not of the transport with itself.
    expect(answeredDirectly).toBeGreaterThan(50);
    expect(answeredByTransport).toBeGreaterThan(50);
  }, 180_000);

  it("takes the direct path for a plain tools/call and the transport for anything else", async () => {
    const transport = vi.spyOn(WebStandardStreamableHTTPServerTransport.prototype, "handleRequest");
    const plainAnswer = await answer(direct, plain);
    expect(plainAnswer.status).toBe(200);
    expect(JSON.parse(plainAnswer.body)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { structuredContent: { results: expect.any(Array) } } });
    expect(transport).not.toHaveBeenCalled();

    // Each of these differs from the plain call in one way the transport checks or treats otherwise.
    const others: Generated[] = [
      { ...plain, accept: "application/json" },
      { ...plain, contentType: "text/plain" },
      { ...plain, contentType: "application/json;charset=UTF-8" },
      { ...plain, version: "1999-01-01" },
      { ...plain, message: { ...plain.message, oddity: "batch1" } },
      { ...plain, message: { ...plain.message, oddity: "progress" } },
      { ...plain, message: { ...plain.message, id: undefined } },
      { ...plain, message: { ...plain.message, id: 2 ** 53 } },
      { ...plain, message: { ...plain.message, name: "nope" } },
      { ...plain, message: { ...plain.message, arguments: null } },
      { ...plain, message: { ...plain.message, method: "tools/list" } },
    ];
    for (const g of others) {
      transport.mockClear();
      await answer(direct, g);
      expect(transport, JSON.stringify(g)).toHaveBeenCalledTimes(1);
    }
  });

  it("a tool that a staff check refuses, an outage-free write dry run and a member's own data answer alike", async () => {
    const cases: Generated[] = [
      { ...plain, bearer: "student", message: { ...plain.message, name: "list_subscriptions", arguments: {} } },
      { ...plain, bearer: "none", message: { ...plain.message, name: "create_subscription", arguments: { email: `dry.${randomUUID()}@example.com`, name: "Dry", planId: DEMO_IDS.plans.monthly } } },
      { ...plain, bearer: "admin", message: { ...plain.message, name: "create_subscription", arguments: { email: `dry.${randomUUID()}@example.com`, name: "Dry", planId: DEMO_IDS.plans.monthly } } },
      { ...plain, bearer: "student", message: { ...plain.message, name: "get_my_profile", arguments: {} } },
      { ...plain, bearer: "adminNarrow", message: { ...plain.message, name: "list_subscriptions", arguments: {} } },
    ];
    for (const g of cases) expect(await answer(direct, g)).toEqual(await answer(viaTransport, g));
  });
});
