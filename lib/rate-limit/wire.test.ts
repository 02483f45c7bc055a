import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "./config";
import type { RateLimitState } from "./state";
import { budgetHeaders, ConcurrencyLimitedError, EXPOSED_HEADERS, rateLimitExtension, RateLimitExceededError, refusal, refusalHeaders, RuntimeLimitedError } from "./wire";

const NOW = 1_800_000_000_000;
const state = (over: Partial<RateLimitState> = {}): RateLimitState => ({
  enforced: true,
  now: NOW,
  operationType: "mutations",
  perMinute: { limit: 200, used: 200, windowMs: 60_000, freeAt: NOW + 12_345 },
  activeOperations: { limit: 10, active: 3 },
  runtime: { limitMs: 60_000, balanceMs: 59_000.6, limits: DEFAULT_LIMITS },
  ...over,
});

describe("budget headers", () => {
  it("are structured fields per the ratelimit-headers draft plus the execution budget", () => {
    expect(budgetHeaders(state())).toEqual({
      "RateLimit-Policy": '"active-operations";q=10;qu="concurrent-requests"',
      RateLimit: '"active-operations";r=7',
      "RateLimit-Limit": "60000",
      "RateLimit-Remaining": "59000",
      "RateLimit-Reset": "1",
      "Access-Control-Expose-Headers": EXPOSED_HEADERS,
    });
    expect(EXPOSED_HEADERS.split(", ").sort()).toEqual(
      ["RateLimit", "RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "X-RateLimit-Limit", "X-RateLimit-Reset"].sort(),
    );
  });
  it("never go negative: a bucket in debt reports 0 remaining and the time until full", () => {
    const h = budgetHeaders(state({ runtime: { limitMs: 60_000, balanceMs: -1500, limits: DEFAULT_LIMITS }, activeOperations: { limit: 10, active: 12 } }));
    expect(h["RateLimit-Remaining"]).toBe("0");
    expect(h["RateLimit-Reset"]).toBe("62");
    expect(h.RateLimit).toBe('"active-operations";r=0');
  });
});

describe("429 per-minute", () => {
  it("rounds Retry-After up to whole seconds and gives reset_at as Unix seconds", () => {
    const err = new RateLimitExceededError(state());
    expect(err.status).toBe(429);
    expect(err.toJSON()).toEqual({
      message: "Rate limit exceeded for mutations: at most 200 mutations per 60 seconds. Retry after 13 seconds.",
      extensions: { code: "RATE_LIMIT_EXCEEDED", operation_type: "mutations", limit: 200, retry_after: 13, reset_at: Math.ceil((NOW + 12_345) / 1000) },
    });
    expect(refusalHeaders(err)).toMatchObject({ "Retry-After": "13", "X-RateLimit-Limit": "200", "X-RateLimit-Reset": String(Math.ceil((NOW + 12_345) / 1000)) });
  });
  it("says 1 second, singular, at the edge", () => {
    const err = new RateLimitExceededError(state({ operationType: "queries", perMinute: { limit: 600, used: 600, windowMs: 60_000, freeAt: NOW + 1 } }));
    expect(err.message).toBe("Rate limit exceeded for queries: at most 600 queries per 60 seconds. Retry after 1 second.");
    expect(err.retryAfter).toBe(1);
  });
});

describe("429 concurrency and runtime", () => {
  it("concurrency: RATE_LIMITED, limiter active_operations, Retry-After 1, no retry_after_ms", () => {
    const err = refusal("active_operations", state());
    expect(err).toBeInstanceOf(ConcurrencyLimitedError);
    expect(err.toJSON().extensions).toEqual({ code: "RATE_LIMITED", limiter: "active_operations" });
    expect(refusalHeaders(err)["Retry-After"]).toBe("1");
    expect(refusalHeaders(err)["X-RateLimit-Limit"]).toBeUndefined();
  });
  it("runtime: retry_after_ms until the balance is positive; Retry-After is that rounded up to seconds", () => {
    const err = refusal("runtime", state({ runtime: { limitMs: 60_000, balanceMs: -2500.5, limits: DEFAULT_LIMITS } }));
    expect(err).toBeInstanceOf(RuntimeLimitedError);
    expect(err.toJSON()).toEqual({
      message: "Execution time budget exceeded: the runtime limiter allows 60000 ms of execution time per 60 seconds. Retry after 2501 ms.",
      extensions: { code: "RATE_LIMITED", limiter: "runtime", retry_after_ms: 2501 },
    });
    expect(refusalHeaders(err)["Retry-After"]).toBe("3");
  });
});

describe("extensions.rate_limit", () => {
  it("mirrors the headers", () => {
    expect(rateLimitExtension(state())).toEqual({
      enforced: true,
      operation_type: "mutations",
      per_minute: { limit: 200, used: 200, remaining: 0, window_seconds: 60, reset_at: Math.ceil((NOW + 12_345) / 1000) },
      active_operations: { limit: 10, active: 3, remaining: 7 },
      runtime: { limit_ms: 60_000, remaining_ms: 59_000, balance_ms: 59_000, reset_seconds: 1 },
    });
  });
});
