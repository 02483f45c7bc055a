// The adapter through HTTP on a small graphql-yoga app: statuses, headers, bodies and extensions.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { DEFAULT_LIMITS } from "@/lib/rate-limit/config";
import { RateLimiter } from "@/lib/rate-limit/limiter";
import { MemoryStore } from "@/lib/rate-limit/stores/memory";
import { BUDGET_HEADERS, EXPOSED_HEADERS, REFUSAL_HEADERS } from "@/lib/rate-limit/wire";
import { credential, T0 } from "./store-behaviour";
import { startTestYoga, type TestYoga } from "./test-yoga";

const limits = { ...DEFAULT_LIMITS, perMinute: { mutations: 3, queries: 5 } };
const creds = {
  enforced: credential(),
  relaxed: credential({ enforceLimits: false }),
  other: credential(),
  abort: credential(),
  timeout: credential(),
  runtime: credential(),
  concurrency: credential(),
};
const keys = Object.fromEntries(Object.keys(creds).map((k) => [k, `key-${k}`])) as Record<keyof typeof creds, string>;
const byKey = Object.fromEntries(Object.entries(creds).map(([k, c]) => [`key-${k}`, c]));

let app: TestYoga;
let flightApp: TestYoga;
let timeoutApp: TestYoga;
let runtimeApp: TestYoga;
beforeAll(async () => {
  setNow(T0);
  app = await startTestYoga({ limiter: new RateLimiter({ store: new MemoryStore(), limits }), credentials: byKey });
  flightApp = await startTestYoga({ limiter: new RateLimiter({ store: new MemoryStore(), limits: DEFAULT_LIMITS }), credentials: byKey });
  timeoutApp = await startTestYoga({
    limiter: new RateLimiter({ store: new MemoryStore(), limits, operationTimeoutMs: 150 }),
    credentials: byKey,
  });
  runtimeApp = await startTestYoga({
    limiter: new RateLimiter({ store: new MemoryStore(), limits: { ...limits, runtimeBudgetMs: 20 } }),
    credentials: byKey,
  });
});
afterAll(async () => {
  setNow(null);
  await Promise.all([app.close(), flightApp.close(), timeoutApp.close(), runtimeApp.close()]);
});
afterEach(() => flightApp.openGate());

const header = (res: Response, name: string) => res.headers.get(name);
const hasNoBudgetHeaders = (res: Response) => [...BUDGET_HEADERS, ...REFUSAL_HEADERS].every((h) => res.headers.get(h) === null);
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe("responses that reach the limiters", () => {
  it("carry the budget headers, exposed to browsers, and the state in extensions, but no 429 headers", async () => {
    const res = await app.post(keys.other, { query: "{ hello }" });
    expect(res.status).toBe(200);
    expect(header(res, "RateLimit-Policy")).toBe('"active-operations";q=10;qu="concurrent-requests"');
    expect(header(res, "RateLimit")).toBe('"active-operations";r=10');
    expect(header(res, "RateLimit-Limit")).toBe("60000");
    expect(Number(header(res, "RateLimit-Remaining"))).toBeGreaterThan(59_000);
    expect(Number(header(res, "RateLimit-Reset"))).toBeLessThanOrEqual(1);
    expect(header(res, "Access-Control-Expose-Headers")).toBe(EXPOSED_HEADERS);
    for (const h of REFUSAL_HEADERS) expect(header(res, h)).toBeNull();
    const body = await res.json();
    expect(body.data).toEqual({ hello: "world" });
    expect(body.extensions.rate_limit).toEqual({
      enforced: true,
      operation_type: "queries",
      per_minute: { limit: 5, used: 1, remaining: 4, window_seconds: 60, reset_at: T0 / 1000 + 60 },
      active_operations: { limit: 10, active: 0, remaining: 10 },
      runtime: {
        limit_ms: 60000,
        remaining_ms: Number(header(res, "RateLimit-Remaining")),
        balance_ms: Number(header(res, "RateLimit-Remaining")),
        reset_seconds: Number(header(res, "RateLimit-Reset")),
      },
    });
    expect(body.extensions.http).toBeUndefined();
  });

  it("count failed operations too", async () => {
    const res = await app.post(keys.other, { query: "{ fail }" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.errors[0].message).toBe("Unexpected error."); // masked by yoga
    expect(body.extensions.rate_limit.per_minute.used).toBe(2);
    expect(header(res, "RateLimit")).not.toBeNull();
  });
});

describe("responses that never reach the limiters carry no budget headers", () => {
  it.each([
    ["an authentication failure", null, "{ hello }", 401],
    ["a syntax error", "key-other", "{ hello ", 400],
    ["a validation error", "key-other", "{ nope }", 400],
  ])("%s", async (_, key, query, status) => {
    const res = await app.post(key, { query }, { headers: { accept: "application/graphql-response+json" } });
    expect(res.status).toBe(status);
    expect(hasNoBudgetHeaders(res)).toBe(true);
    const body = await res.json();
    expect(body.errors).toHaveLength(1);
    expect(body.extensions?.rate_limit).toBeUndefined();
  });
});

describe("per-minute limit through HTTP", () => {
  it("answers the 4th mutation with 429 RATE_LIMIT_EXCEEDED, matching headers and body", async () => {
    for (let i = 0; i < 3; i++) expect((await app.post(keys.enforced, { query: "mutation { bump }" })).status).toBe(200);
    setNow(T0 + 20_000);
    const res = await app.post(keys.enforced, { query: "mutation { bump }" });
    expect(res.status).toBe(429);
    expect(header(res, "Retry-After")).toBe("40");
    expect(header(res, "X-RateLimit-Limit")).toBe("3");
    expect(header(res, "X-RateLimit-Reset")).toBe(String(T0 / 1000 + 60));
    expect(header(res, "RateLimit")).toBe('"active-operations";r=10');
    const body = await res.json();
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message: "Rate limit exceeded for mutations: at most 3 mutations per 60 seconds. Retry after 40 seconds.",
        extensions: { code: "RATE_LIMIT_EXCEEDED", operation_type: "mutations", limit: 3, retry_after: 40, reset_at: T0 / 1000 + 60 },
      },
    ]);
    expect(body.extensions.rate_limit.per_minute).toMatchObject({ used: 3, remaining: 0, reset_at: T0 / 1000 + 60 });
    // Queries have their own counter; comments and white space before `mutation` still make a mutation.
    expect((await app.post(keys.enforced, { query: "{ hello }" })).status).toBe(200);
    const commented = await app.post(keys.enforced, { query: "  # bump it\n ,mutation Bump { bump }" });
    expect(commented.status).toBe(429);
    expect((await commented.json()).errors[0].extensions.operation_type).toBe("mutations");
    // A leading query does not move a mutation to the query budget.
    const sneaky = await app.post(keys.enforced, { query: "query A { hello } mutation B { bump }", operationName: "B" });
    expect(sneaky.status).toBe(429);
    setNow(T0 + 60_000);
    expect((await app.post(keys.enforced, { query: "mutation { bump }" })).status).toBe(200);
    setNow(T0);
  });

  it("never refuses a credential whose enforcement is off, and still reports", async () => {
    for (let i = 0; i < 6; i++) {
      const res = await app.post(keys.relaxed, { query: "mutation { bump }" });
      expect(res.status).toBe(200);
      expect(header(res, "RateLimit")).toBe('"active-operations";r=10');
      if (i === 5) expect((await res.json()).extensions.rate_limit).toMatchObject({ enforced: false, per_minute: { used: 6, remaining: 0 } });
    }
  });
});

describe("operations in flight through HTTP", () => {
  it("refuses the 11th with 429 RATE_LIMITED and Retry-After 1 while ten run", async () => {
    const running = Array.from({ length: 10 }, () => flightApp.post(keys.concurrency, { query: "{ gated }" }));
    await until(() => flightApp.waiting() === 10);
    const res = await flightApp.post(keys.concurrency, { query: "{ hello }" });
    expect(res.status).toBe(429);
    expect(header(res, "Retry-After")).toBe("1");
    expect(header(res, "RateLimit")).toBe('"active-operations";r=0');
    expect(header(res, "X-RateLimit-Limit")).toBeNull();
    const body = await res.json();
    expect(body.errors).toEqual([
      {
        message: "Too many operations in flight: the active_operations limiter allows 10 at a time. Retry after 1 second.",
        extensions: { code: "RATE_LIMITED", limiter: "active_operations" },
      },
    ]);
    flightApp.openGate();
    const done = await Promise.all(running);
    expect(done.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(header((await flightApp.post(keys.concurrency, { query: "{ hello }" }))!, "RateLimit")).toBe('"active-operations";r=10');
  });

  it("releases the slot when the client aborts", async () => {
    const aborts = Array.from({ length: 10 }, () => new AbortController());
    const running = aborts.map((a) => flightApp.post(keys.abort, { query: "{ gated }" }, { signal: a.signal }).catch(() => null));
    await until(() => flightApp.waiting() === 10);
    expect((await flightApp.post(keys.abort, { query: "{ hello }" })).status).toBe(429);
    aborts.forEach((a) => a.abort());
    await Promise.all(running);
    let res: Response | undefined;
    for (let i = 0; i < 100; i++) {
      res = await flightApp.post(keys.abort, { query: "{ hello }" });
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(res!.status).toBe(200);
    expect(header(res!, "RateLimit")).toBe('"active-operations";r=10');
  });

  it("answers an operation that runs too long with a timeout and releases its slot", async () => {
    const res = await timeoutApp.post(keys.timeout, { query: "{ gated }" });
    expect(res.status).toBe(504);
    const body = await res.json();
    expect(body.errors[0]).toMatchObject({ extensions: { code: "OPERATION_TIMEOUT" } });
    expect(body.extensions.rate_limit.active_operations.active).toBe(0);
    expect(Number(header(res, "RateLimit-Remaining"))).toBeLessThanOrEqual(60_000 - 150);
    timeoutApp.openGate();
  });
});

describe("execution time through HTTP", () => {
  it("charges measured time, goes into debt, and refuses with the refill time", async () => {
    const slow = runtimeApp.post(keys.runtime, { query: "{ gated }" });
    await until(() => runtimeApp.waiting() === 1);
    await new Promise((r) => setTimeout(r, 60));
    runtimeApp.openGate();
    const charged = await slow;
    expect(charged.status).toBe(200);
    expect(header(charged, "RateLimit-Limit")).toBe("20");
    expect(header(charged, "RateLimit-Remaining")).toBe("0");
    const debt = -(await charged.json()).extensions.rate_limit.runtime.balance_ms;
    expect(debt).toBeGreaterThanOrEqual(40);

    const res = await runtimeApp.post(keys.runtime, { query: "{ hello }" });
    expect(res.status).toBe(429);
    const body = await res.json();
    const retryAfterMs = body.errors[0].extensions.retry_after_ms;
    // 20 ms per 60 s refill: 1 ms of budget takes 3 s.
    expect(retryAfterMs).toBeGreaterThan(debt * 3000 - 3000);
    expect(body.errors[0]).toEqual({
      message: `Execution time budget exceeded: the runtime limiter allows 20 ms of execution time per 60 seconds. Retry after ${retryAfterMs} ms.`,
      extensions: { code: "RATE_LIMITED", limiter: "runtime", retry_after_ms: retryAfterMs },
    });
    expect(header(res, "Retry-After")).toBe(String(Math.ceil(retryAfterMs / 1000)));
    expect(header(res, "X-RateLimit-Reset")).toBeNull();
    setNow(T0 + retryAfterMs);
    expect((await runtimeApp.post(keys.runtime, { query: "{ hello }" })).status).toBe(200);
    setNow(T0);
  });
});
