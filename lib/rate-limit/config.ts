import type { Env } from "../env";
import type { Limits } from "./types";

/**
 * Operations of one credential that execute at once; the rest of its in-flight operations (up to
 * RATE_LIMIT_MAX_IN_FLIGHT) wait their turn. Two: one computing while the other waits on the
 * database. See docs/decisions.md, "Fairness between credentials".
 */
export const EXECUTING_PER_CREDENTIAL = 2;

/** Grace beyond the operation timeout before a lease nobody released stops counting. */
export const LEASE_GRACE_MS = 10_000;

export interface RateLimitSettings {
  limits: Limits;
  /** An operation still running after this long is answered with a timeout and its slot released. */
  operationTimeoutMs: number;
  /** Longest wait for the shared store per call before falling back (see stores/resilient.ts). */
  storeTimeoutMs: number;
  keyPrefix: string;
}

export function rateLimitSettings(env: Env): RateLimitSettings {
  const operationTimeoutMs = env.RATE_LIMIT_OPERATION_TIMEOUT_MS;
  return {
    limits: {
      perMinute: { mutations: env.RATE_LIMIT_MUTATIONS, queries: env.RATE_LIMIT_QUERIES },
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
      maxInFlight: env.RATE_LIMIT_MAX_IN_FLIGHT,
      runtimeBudgetMs: env.RATE_LIMIT_RUNTIME_MS,
      leaseTtlMs: operationTimeoutMs + LEASE_GRACE_MS,
    },
    operationTimeoutMs,
    storeTimeoutMs: env.RATE_LIMIT_STORE_TIMEOUT_MS,
    keyPrefix: env.RATE_LIMIT_KEY_PREFIX,
  };
}

export const DEFAULT_LIMITS: Limits = {
  perMinute: { mutations: 200, queries: 600 },
  windowMs: 60_000,
  maxInFlight: 10,
  runtimeBudgetMs: 60_000,
  leaseTtlMs: 30_000 + LEASE_GRACE_MS,
};
