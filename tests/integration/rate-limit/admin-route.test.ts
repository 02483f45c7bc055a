// The rate limits on the real /admin/graphql route (the Admin API's handler with the plugin wired).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { resetEnvCache } from "@/lib/env";
import { resetAdminRateLimiter } from "@/lib/rate-limit";
import { BUDGET_HEADERS, EXPOSED_HEADERS, REFUSAL_HEADERS } from "@/lib/rate-limit/wire";
import { startAppServer, type AppServer } from "../../helpers/app-server";

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const ENV = { RATE_LIMIT_QUERIES: "6", RATE_LIMIT_MUTATIONS: "3" };
let app: AppServer;

beforeAll(async () => {
  Object.assign(process.env, ENV);
  resetEnvCache();
  await resetAdminRateLimiter();
  await seedDemo({ prisma: db() });
  app = await startAppServer();
  setNow(T0);
});
afterAll(async () => {
  for (const k of Object.keys(ENV)) delete process.env[k];
  resetEnvCache();
  await resetAdminRateLimiter();
  setNow(null);
  await app.close();
});

async function post(body: unknown, headers: Record<string, string> = {}, key: string | null = DEFAULT_DEMO_API_KEY) {
  const res = await app.fetch("/admin/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "x-service-api-key": key } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { res, body: text ? JSON.parse(text) : null };
}

const noBudgetHeaders = (res: Response) => [...BUDGET_HEADERS, ...REFUSAL_HEADERS].every((h) => res.headers.get(h) === null);

describe("/admin/graphql rate limits", () => {
  it("reports the budgets on an executed operation, exposed to browsers, and in extensions", async () => {
    const { res, body } = await post({ query: "{ membershipPlans { id } }" });
    expect(res.status).toBe(200);
    expect(body.data.membershipPlans.length).toBeGreaterThan(0);
    expect(res.headers.get("RateLimit-Policy")).toBe('"active-operations";q=10;qu="concurrent-requests"');
    expect(res.headers.get("RateLimit")).toBe('"active-operations";r=10');
    expect(res.headers.get("RateLimit-Limit")).toBe("60000");
    expect(Number(res.headers.get("RateLimit-Remaining"))).toBeLessThanOrEqual(60_000);
    expect(res.headers.get("RateLimit-Reset")).toMatch(/^\d+$/);
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain(EXPOSED_HEADERS);
    for (const h of REFUSAL_HEADERS) expect(res.headers.get(h)).toBeNull();
    expect(body.extensions.rate_limit).toMatchObject({
      enforced: true,
      operation_type: "queries",
      per_minute: { limit: 6, used: 1, remaining: 5, window_seconds: 60 },
      active_operations: { limit: 10, active: 0, remaining: 10 },
      runtime: { limit_ms: 60000 },
    });
  });

  it("counts an operation refused for lack of permission (it reached execution)", async () => {
    const { res, body } = await post({ query: "{ membershipPlans { id } }" }, {}, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS);
    expect(res.headers.get("RateLimit")).toBe('"active-operations";r=10');
    expect(body.extensions.rate_limit.per_minute.used).toBe(1);
  });

  it.each([
    ["no API key", { query: "{ membershipPlans { id } }" }, {}, null],
    ["an unknown API key", { query: "{ membershipPlans { id } }" }, {}, "sh_nosuchkey_0123456789abcdefghijkl"],
    ["a bad API-Version", { query: "{ membershipPlans { id } }" }, { "api-version": "1999-01" }, DEFAULT_DEMO_API_KEY],
    ["a syntax error", { query: "{ membershipPlans { id }" }, {}, DEFAULT_DEMO_API_KEY],
    ["a validation error", { query: "{ nope }" }, {}, DEFAULT_DEMO_API_KEY],
    ["malformed JSON", "{", {}, DEFAULT_DEMO_API_KEY],
  ])("sends no budget headers and counts nothing for %s", async (_, body, headers, key) => {
    const r = await post(body, { accept: "application/graphql-response+json", ...headers }, key);
    expect([400, 401]).toContain(r.res.status);
    expect(r.body.errors.length).toBeGreaterThan(0);
    expect(noBudgetHeaders(r.res)).toBe(true);
    expect(r.body?.extensions?.rate_limit).toBeUndefined();
  });

  it("exposes the headers to a cross-origin browser client", async () => {
    const { res } = await post({ query: "{ __typename }" }, { origin: "https://school-admin.example" });
    expect(res.headers.get("access-control-expose-headers")).toContain("RateLimit-Policy");
    expect(res.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });

  it("refuses the 7th query within the window with 429 RATE_LIMIT_EXCEEDED, and admits again when the oldest leaves", async () => {
    // Two queries so far for this key (the first and the cross-origin test).
    setNow(T0 + 10_000);
    for (let i = 0; i < 4; i++) expect((await post({ query: "{ __typename }" })).res.status).toBe(200);
    setNow(T0 + 30_000);
    const { res, body } = await post({ query: "{ __typename }" });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("30");
    expect(res.headers.get("X-RateLimit-Limit")).toBe("6");
    expect(res.headers.get("X-RateLimit-Reset")).toBe(String(T0 / 1000 + 60));
    expect(res.headers.get("RateLimit")).toBe('"active-operations";r=10');
    expect(body.errors).toEqual([
      {
        message: "Rate limit exceeded for queries: at most 6 queries per 60 seconds. Retry after 30 seconds.",
        extensions: { code: "RATE_LIMIT_EXCEEDED", operation_type: "queries", limit: 6, retry_after: 30, reset_at: T0 / 1000 + 60 },
      },
    ]);
    expect(body.data).toBeUndefined();
    // Mutations have their own counter (the rule looks past comments).
    const m = await post({ query: "# create\nmutation { enrollStudentToCourse(input: { courseId: \"nope\", email: \"a@example.com\", name: \"A\" }) { enrollment { id } errors } }" });
    expect(m.res.status).not.toBe(429);
    expect(m.body.extensions.rate_limit).toMatchObject({ operation_type: "mutations", per_minute: { used: 1, limit: 3 } });
    setNow(T0 + 60_000);
    expect((await post({ query: "{ __typename }" })).res.status).toBe(200);
    setNow(T0);
  });
});
