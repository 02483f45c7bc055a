// The three limiters as pure functions over plain state. The in-memory store runs them directly;
// the Lua scripts in stores/scripts.ts implement the same rules for Redis (keep them in step).
import type { Limits } from "./types";

/**
 * Timestamps (ms) of admitted requests, ascending; the window is (now - windowMs, now].
 * Expired entries are dropped from the front by moving `head`, compacting now and then, so a
 * large window (enforcement off, high limits) costs O(1) per request instead of a shift of all.
 */
export class SlidingLog {
  private entries: number[] = [];
  private head = 0;

  get length(): number {
    return this.entries.length - this.head;
  }

  at(index: number): number | undefined {
    return this.entries[this.head + index];
  }

  prune(now: number, windowMs: number): void {
    const cutoff = now - windowMs;
    while (this.head < this.entries.length && this.entries[this.head]! <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** Appends `at`, keeping the order if a caller's clock went backwards. */
  insert(at: number): void {
    const e = this.entries;
    if (e.length === this.head || e[e.length - 1]! <= at) {
      e.push(at);
      return;
    }
    let lo = this.head;
    let hi = e.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (e[mid]! <= at) lo = mid + 1;
      else hi = mid;
    }
    e.splice(lo, 0, at);
  }

  /**
   * When the window admits one more request: the entry at index max(0, count - limit) leaves the
   * window windowMs after it was made. With exactly `limit` entries that is the oldest one.
   */
  freeAt(limit: number, windowMs: number): number | null {
    if (!this.length) return null;
    return this.at(Math.max(0, this.length - limit))! + windowMs;
  }
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
