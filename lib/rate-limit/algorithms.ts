// The three limiters as pure functions over plain state. The in-memory store runs them directly;
// the Lua scripts in stores/scripts.ts implement the same rules for Redis (keep them in step).
import type { Limits } from "./types";

/** Timestamps (ms) of admitted requests, ascending. The window is (now - windowMs, now]. */
export function pruneWindow(entries: number[], now: number, windowMs: number): void {
  let drop = 0;
  while (drop < entries.length && entries[drop]! <= now - windowMs) drop++;
  if (drop) entries.splice(0, drop);
}

export function insertSorted(entries: number[], at: number): void {
  if (!entries.length || entries[entries.length - 1]! <= at) {
    entries.push(at);
    return;
  }
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  entries.splice(lo, 0, at);
}

/**
 * When the window admits one more request: the entry at index max(0, count - limit) leaves the
 * window windowMs after it was made. With exactly `limit` entries that is the oldest one.
 */
export function windowFreeAt(entries: readonly number[], limit: number, windowMs: number): number | null {
  if (!entries.length) return null;
  const blocking = entries[Math.max(0, entries.length - limit)]!;
  return blocking + windowMs;
}

/** Leases by id → expiry (ms). Drops expired ones (crashed instances never release theirs). */
export function pruneLeases(leases: Map<string, number>, now: number): void {
  for (const [id, expiresAt] of leases) if (expiresAt <= now) leases.delete(id);
}

export interface Bucket {
  balanceMs: number;
  at: number;
}

export const refillRate = (limits: Pick<Limits, "runtimeBudgetMs" | "windowMs">) => limits.runtimeBudgetMs / limits.windowMs;

/** The runtime bucket's balance at `now`, refilled continuously and capped at the budget. */
export function bucketBalance(bucket: Bucket | undefined, now: number, limits: Limits): number {
  if (!bucket) return limits.runtimeBudgetMs;
  const elapsed = Math.max(0, now - bucket.at);
  return Math.min(limits.runtimeBudgetMs, bucket.balanceMs + elapsed * refillRate(limits));
}

/** Milliseconds until a balance in debt (or at zero) becomes positive again; 0 when it already is. */
export function msUntilPositive(balanceMs: number, limits: Limits): number {
  if (balanceMs > 0) return 0;
  return Math.floor(-balanceMs / refillRate(limits)) + 1;
}

/** Milliseconds until the bucket is full again. */
export function msUntilFull(balanceMs: number, limits: Limits): number {
  return Math.max(0, Math.ceil((limits.runtimeBudgetMs - balanceMs) / refillRate(limits)));
}
