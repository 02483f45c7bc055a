// What clients see: 429 bodies and headers, budget headers, and the `rate_limit` extension.
// graphql-yoga's factory, not `new GraphQLError`: yoga recognises (and does not mask) errors made
// with the graphql instance it uses, which may be another copy (ESM/CJS) than this module's import.
import { createGraphQLError } from "graphql-yoga";
import type { GraphQLError } from "graphql";
import {
  operationsStartable,
  perMinuteRemaining,
  perMinuteResetAt,
  perMinuteRetryAfterSeconds,
  runtimeRemainingMs,
  runtimeResetSeconds,
  runtimeRetryAfterMs,
  type RateLimitState,
} from "./state";
import type { Denial } from "./types";

/** Budget headers: on every response whose operation reached the limiters. */
export const BUDGET_HEADERS = ["RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] as const;
/** Only on per-minute 429s (Retry-After on every 429). */
export const REFUSAL_HEADERS = ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Reset"] as const;
export const EXPOSED_HEADERS = [...BUDGET_HEADERS, ...REFUSAL_HEADERS].join(", ");

/**
 * RateLimit-Policy and RateLimit are structured fields (RFC 9651) per the IETF ratelimit-headers
 * draft: one item, `active-operations`, with its quota and the operations still startable.
 * RateLimit-Limit / -Remaining / -Reset describe the execution-time budget in ms and seconds.
 */
export function budgetHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Policy": `"active-operations";q=${state.activeOperations.limit};qu="concurrent-requests"`,
    RateLimit: `"active-operations";r=${operationsStartable(state)}`,
    "RateLimit-Limit": String(state.runtime.limitMs),
    "RateLimit-Remaining": String(runtimeRemainingMs(state)),
    "RateLimit-Reset": String(runtimeResetSeconds(state)),
    "Access-Control-Expose-Headers": EXPOSED_HEADERS,
  };
}

/** The same state in the response's `extensions.rate_limit`, for clients that do not read headers. */
export function rateLimitExtension(state: RateLimitState) {
  return {
    enforced: state.enforced,
    operation_type: state.operationType,
    per_minute: {
      limit: state.perMinute.limit,
      used: state.perMinute.used,
      remaining: perMinuteRemaining(state),
      window_seconds: state.perMinute.windowMs / 1000,
      reset_at: perMinuteResetAt(state),
    },
    active_operations: {
      limit: state.activeOperations.limit,
      active: state.activeOperations.active,
      remaining: operationsStartable(state),
    },
    runtime: {
      limit_ms: state.runtime.limitMs,
      remaining_ms: runtimeRemainingMs(state),
      balance_ms: Math.floor(state.runtime.balanceMs),
      reset_seconds: runtimeResetSeconds(state),
    },
  };
}

export type RateLimitErrorCode = "RATE_LIMIT_EXCEEDED" | "RATE_LIMITED";

/** A refused operation: HTTP 429, one top-level GraphQL error. */
export abstract class RateLimitError extends Error {
  readonly status = 429;
  abstract readonly code: RateLimitErrorCode;
  constructor(
    message: string,
    readonly state: RateLimitState,
  ) {
    super(message);
  }
  /** Retry-After (and X-RateLimit-* for the per-minute case); budget headers come separately. */
  abstract headers(): Record<string, string>;
  abstract extensions(): Record<string, unknown>;
  toGraphQLError(): GraphQLError {
    return createGraphQLError(this.message, { extensions: { code: this.code, ...this.extensions() } });
  }
  toJSON() {
    return { message: this.message, extensions: { code: this.code, ...this.extensions() } };
  }
}

export class RateLimitExceededError extends RateLimitError {
  override name = "RateLimitExceededError";
  readonly code = "RATE_LIMIT_EXCEEDED";
  readonly retryAfter: number;
  readonly resetAt: number;
  constructor(state: RateLimitState) {
    const retryAfter = Math.max(1, perMinuteRetryAfterSeconds(state));
    const { operationType } = state;
    const { limit, windowMs } = state.perMinute;
    super(
      `Rate limit exceeded for ${operationType}: at most ${limit} ${operationType} per ${windowMs / 1000} seconds. ` +
        `Retry after ${retryAfter} ${retryAfter === 1 ? "second" : "seconds"}.`,
      state,
    );
    this.retryAfter = retryAfter;
    this.resetAt = perMinuteResetAt(state) ?? Math.ceil(state.now / 1000) + retryAfter;
  }
  headers() {
    return {
      "Retry-After": String(this.retryAfter),
      "X-RateLimit-Limit": String(this.state.perMinute.limit),
      "X-RateLimit-Reset": String(this.resetAt),
    };
  }
  extensions() {
    return {
      operation_type: this.state.operationType,
      limit: this.state.perMinute.limit,
      retry_after: this.retryAfter,
      reset_at: this.resetAt,
    };
  }
}

export class ConcurrencyLimitedError extends RateLimitError {
  override name = "ConcurrencyLimitedError";
  readonly code = "RATE_LIMITED";
  constructor(state: RateLimitState) {
    super(
      `Too many operations in flight: the active_operations limiter allows ${state.activeOperations.limit} at a time. Retry after 1 second.`,
      state,
    );
  }
  headers() {
    return { "Retry-After": "1" };
  }
  extensions() {
    return { limiter: "active_operations" };
  }
}

export class RuntimeLimitedError extends RateLimitError {
  override name = "RuntimeLimitedError";
  readonly code = "RATE_LIMITED";
  readonly retryAfterMs: number;
  constructor(state: RateLimitState) {
    const retryAfterMs = runtimeRetryAfterMs(state);
    const { limitMs, limits } = state.runtime;
    super(
      `Execution time budget exceeded: the runtime limiter allows ${limitMs} ms of execution time per ${limits.windowMs / 1000} seconds. ` +
        `Retry after ${retryAfterMs} ms.`,
      state,
    );
    this.retryAfterMs = retryAfterMs;
  }
  headers() {
    return { "Retry-After": String(Math.max(1, Math.ceil(this.retryAfterMs / 1000))) };
  }
  extensions() {
    return { limiter: "runtime", retry_after_ms: this.retryAfterMs };
  }
}

export function refusal(denial: Denial, state: RateLimitState): RateLimitError {
  if (denial === "per_minute") return new RateLimitExceededError(state);
  if (denial === "active_operations") return new ConcurrencyLimitedError(state);
  return new RuntimeLimitedError(state);
}

/** All headers of a refused operation. */
export function refusalHeaders(error: RateLimitError): Record<string, string> {
  return { ...budgetHeaders(error.state), ...error.headers() };
}
