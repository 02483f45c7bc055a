// Next's route-handler stage never runs for the Admin API (app/_routes/table.ts): under the
// production entry (server/start.mjs, this suite's server) the front answers POST of /admin/graphql
// before Next's pipeline, and proxy.ts answers GET and OPTIONS. Differential check: the same
// requests go to the server and to the route's handler run in this process on a demo database of
// its own, and the answers must match: status, body and every header the handler sets. Only what
// the server adds is left out of the comparison (next.config.mjs's security headers, checked to be
// present, and Vary), as are the budgets' values (each side has its own history).
import { expect, test } from "@playwright/test";
import { createAdminHandler } from "../../lib/admin-api/handler";
import { closeDbHandle, createDbHandle, setDbHandle, type DbHandle } from "../../lib/db/client";
import { createPgliteDriver } from "../../lib/db/driver";
import { migrate } from "../../lib/db/migrator";
import { DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, README_DEMO_CREDENTIALS } from "../../lib/startup/seed/demo-credentials";
import { seedDemo } from "../../lib/startup/seed/seed";
import { adminRateLimitPlugin } from "../../lib/rate-limit";

interface Case {
  name: string;
  method: "GET" | "POST" | "OPTIONS";
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

const json = { "content-type": "application/json", accept: "application/json" };
const key = { "x-service-api-key": DEFAULT_DEMO_API_KEY };
const post = (query: string, extra: Record<string, string> = {}): Pick<Case, "method" | "headers" | "body"> => ({
  method: "POST",
  headers: { ...json, ...key, ...extra },
  body: JSON.stringify({ query }),
});

const CASES: Case[] = [
  { name: "typename", ...post("query BenchLimiter { __typename }") },
  { name: "courses, every scalar", ...post("query C { courses(first: 50) { nodes { id slug title summary status price currency } } }") },
  { name: "plans", ...post("{ membershipPlans { id name price currency planType isLifetime } }") },
  { name: "GET query", method: "GET", path: "/admin/graphql?query=%7B__typename%7D", headers: { ...key, accept: "application/json" } },
  { name: "no key: 401", ...post("{ __typename }"), headers: json },
  { name: "bad API-Version: 400", ...post("{ __typename }", { "api-version": "1999-01" }) },
  { name: "invalid JSON: 400", method: "POST", headers: { ...json, ...key }, body: "{" },
  { name: "body over 1 MiB: 413", method: "POST", headers: { ...json, ...key }, body: JSON.stringify({ query: `{ __typename }${" ".repeat(1100 * 1024)}` }) },
  { name: "syntax error, graphql-response+json", ...post("{ courses(", { accept: "application/graphql-response+json" }) },
  { name: "validation error", ...post("{ nope }") },
  { name: "key without permission", ...post("{ courses { nodes { id } } }", { "x-service-api-key": DEFAULT_DEMO_API_KEY_NO_PERMISSIONS }) },
  {
    name: "mutation with an Idempotency-Key",
    ...post('mutation { createSubscription(input: { email: "proxy@schoolhouse.test", name: "P", planId: "no-such-plan" }) { errors subscription { id } } }', {
      "idempotency-key": "proxy-served-1",
    }),
  },
  {
    name: "the same mutation replayed",
    ...post('mutation { createSubscription(input: { email: "proxy@schoolhouse.test", name: "P", planId: "no-such-plan" }) { errors subscription { id } } }', {
      "idempotency-key": "proxy-served-1",
    }),
  },
  { name: "preflight", method: "OPTIONS", headers: { origin: "https://example.com", "access-control-request-method": "POST" } },
  { name: "playground", method: "GET", headers: { accept: "text/html" } },
];

// Added by Next (next.config.mjs headers, its Vary) or by the transport, not by the handler.
const NOT_COMPARED = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "vary", "x-frame-options", "content-security-policy", "referrer-policy"]);
// Each side charges its own measured execution time.
const RUNTIME_HEADERS = new Set(["ratelimit-remaining", "ratelimit-reset"]);

function headersOf(res: Response): Record<string, string> {
  // Names as sent on the wire (lower case), each with the value `get` gives: in this process yoga
  // may answer with its fetch ponyfill, whose Headers keep the spelling they were set with.
  const names = new Set<string>();
  res.headers.forEach((_, name) => names.add(name.toLowerCase()));
  const out: Record<string, string> = {};
  for (const name of [...names].sort()) {
    if (!NOT_COMPARED.has(name)) out[name] = RUNTIME_HEADERS.has(name) ? "(runtime)" : res.headers.get(name)!;
  }
  return out;
}

function normalizedBody(text: string): unknown {
  try {
    const body = JSON.parse(text) as { extensions?: { rate_limit?: { runtime?: Record<string, number>; per_minute?: Record<string, number> } } };
    const rl = body.extensions?.rate_limit;
    if (rl?.runtime) for (const k of ["remaining_ms", "balance_ms", "reset_seconds"]) rl.runtime[k] = 0;
    // The server's window also holds the other specs' requests with this key.
    if (rl?.per_minute) for (const k of ["used", "remaining", "reset_at"]) rl.per_minute[k] = 0;
    return body;
  } catch {
    return text;
  }
}

let handle: DbHandle;
let inProcess: (request: Request) => Promise<Response>;

test.beforeAll(async () => {
  handle = createDbHandle(createPgliteDriver("memory://"));
  setDbHandle(handle);
  await migrate({ driver: handle.driver });
  await seedDemo({ prisma: handle.prisma, credentials: README_DEMO_CREDENTIALS });
  // As the route composes it (app/_routes/admin-graphql.ts).
  inProcess = createAdminHandler({ plugins: [adminRateLimitPlugin()] });
});

test.afterAll(async () => {
  await closeDbHandle(handle);
});

test("the front and the proxy answer the Admin API as the route's handler does", async ({ baseURL }) => {
  for (const c of CASES) {
    const path = c.path ?? "/admin/graphql";
    const headers = { "accept-encoding": "identity", ...c.headers };
    const viaServer = await fetch(`${baseURL}${path}`, { method: c.method, headers, body: c.body });
    const viaHandler = await inProcess(new Request(`http://localhost${path}`, { method: c.method, headers, body: c.body }));
    expect(viaServer.status, c.name).toBe(viaHandler.status);
    expect(headersOf(viaServer), c.name).toEqual(headersOf(viaHandler));
    expect(normalizedBody(await viaServer.text()), c.name).toEqual(normalizedBody(await viaHandler.text()));
    // Answered by the front or the proxy: Next's route stage (which adds its RSC Vary) never ran,
    // not even for a body declared past the limit, which skips the proxy (proxy.ts, issue 29).
    expect(viaServer.headers.get("vary") ?? "", c.name).not.toContain("rsc");
    // next.config.mjs's headers for /admin apply to what the front and the proxy send.
    expect(viaServer.headers.get("x-frame-options"), c.name).toBe("DENY");
    expect(viaServer.headers.get("content-security-policy"), c.name).toContain("frame-ancestors 'none'");
  }
});

test("HEAD and other methods still reach the route (yoga's 405)", async ({ baseURL }) => {
  for (const method of ["HEAD", "PUT", "DELETE"]) {
    const res = await fetch(`${baseURL}/admin/graphql`, { method, headers: { ...key, "accept-encoding": "identity" } });
    expect(res.status, method).toBe(405);
  }
});
