// The bound of the process caches whose keys requests choose (tokens, client ids, origins): a flood
// of distinct keys costs misses, never memory. Here, in the base layer rather than lib/core,
// because lib/db's caches use it and lib/db may import only the base (docs/architecture.md, "Layers").
//
// A Map iterates in insertion order, so re-inserting an entry on use keeps the least recently used
// first and eviction takes the first key: every operation is O(1), with no list of its own.

export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be a positive integer");
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    // has() only on a miss: the hit, the hot path, costs what a hand-written touch costs.
    if (value === undefined && !this.map.has(key)) return undefined;
    this.map.delete(key);
    this.map.set(key, value as V);
    return value;
  }

  /** The value, its place in the order unchanged: for a look that is not a use. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Stores the value as the most recently used; beyond maxEntries the least recently used goes. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    // At most one over: no set ever leaves more than maxEntries.
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value!);
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}
