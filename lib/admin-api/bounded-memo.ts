/**
 * A string-keyed memo bounded by entry count and by the total length of its keys, least recently
 * used dropped first. The Admin API keeps three (query texts within the size limits, validated
 * literal shapes, the cost of each shape): keys are client-chosen texts, so both bounds matter.
 */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(private readonly bounds: { readonly maxEntries: number; readonly maxChars: number }) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, made the most recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.entries.delete(key)) this.chars -= key.length;
    this.entries.set(key, value);
    this.chars += key.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.bounds.maxEntries && this.chars <= this.bounds.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}
