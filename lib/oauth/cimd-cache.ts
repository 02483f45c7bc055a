// The bounded cache behind Client ID Metadata Document fetches. Entries expire at a time the caller
// computes (HTTP caching rules for documents, a short fixed time for failures); the clock is a
// parameter so expiry is tested without waiting. At the bound the least recently used entry goes,
// so a flood of distinct client_ids costs refetches, never memory.

import { LruMap } from "../lru-map";

export class BoundedTtlCache<V> {
  private readonly entries: LruMap<string, { value: V; expiresAt: number }>;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError("limit must be a positive integer");
    this.entries = new LruMap(limit);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value while fresh at nowMs; an expired entry is dropped. A hit becomes the most recently used. */
  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.set(key, { value, expiresAt });
  }

  clear(): void {
    this.entries.clear();
  }
}
