// The limiter state reported to clients (headers and extensions) after a decision or a charge.
import { msUntilFull, msUntilPositive } from "./algorithms";
import type { Limits, OperationType } from "./types";

export interface RateLimitState {
  enforced: boolean;
  /** Store time (ms) the values refer to. */
  now: number;
  operationType: OperationType;
  perMinute: {
    limit: number;
    used: number;
    windowMs: number;
    /** When the window next admits one more request (ms), null when empty. */
    freeAt: number | null;
  };
  activeOperations: { limit: number; active: number };
  runtime: { limitMs: number; balanceMs: number; limits: Limits };
}

export const perMinuteRemaining = (s: RateLimitState) => Math.max(0, s.perMinute.limit - s.perMinute.used);
export const operationsStartable = (s: RateLimitState) => Math.max(0, s.activeOperations.limit - s.activeOperations.active);
export const runtimeRemainingMs = (s: RateLimitState) => Math.max(0, Math.floor(s.runtime.balanceMs));
export const runtimeResetSeconds = (s: RateLimitState) => Math.ceil(msUntilFull(s.runtime.balanceMs, s.runtime.limits) / 1000);
export const runtimeRetryAfterMs = (s: RateLimitState) => msUntilPositive(s.runtime.balanceMs, s.runtime.limits);
/** Whole seconds (rounded up, so waiting them is always enough) until the window admits again. */
export const perMinuteRetryAfterSeconds = (s: RateLimitState) =>
  s.perMinute.freeAt === null ? 0 : Math.max(0, Math.ceil((s.perMinute.freeAt - s.now) / 1000));
/** Unix seconds (rounded up) when the window admits again. */
export const perMinuteResetAt = (s: RateLimitState) => (s.perMinute.freeAt === null ? null : Math.ceil(s.perMinute.freeAt / 1000));
