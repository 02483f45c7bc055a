import { describe, expect, it } from "vitest";
import { BoundedTtlCache } from "./cimd-cache";

describe("BoundedTtlCache", () => {
  it("serves an entry until its expiry time, not at or after it", () => {
    const cache = new BoundedTtlCache<string>(10);
    cache.set("a", "A", 1_000);
    expect(cache.get("a", 999)).toBe("A");
    expect(cache.get("a", 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("never holds more than its limit; the least recently used entry goes first", () => {
    const cache = new BoundedTtlCache<number>(3);
    for (const [i, k] of ["a", "b", "c"].entries()) cache.set(k, i, 10_000);
    expect(cache.get("a", 0)).toBe(0); // a is now the most recently used
    cache.set("d", 3, 10_000);
    expect(cache.size).toBe(3);
    expect(cache.get("b", 0)).toBeUndefined();
    expect([cache.get("a", 0), cache.get("c", 0), cache.get("d", 0)]).toEqual([0, 2, 3]);
    for (let i = 0; i < 1_000; i++) cache.set(`k${i}`, i, 10_000);
    expect(cache.size).toBe(3);
  });

  it("replacing a key keeps one entry with the new expiry", () => {
    const cache = new BoundedTtlCache<string>(2);
    cache.set("a", "old", 100);
    cache.set("a", "new", 500);
    expect(cache.size).toBe(1);
    expect(cache.get("a", 200)).toBe("new");
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => new BoundedTtlCache(0)).toThrow(RangeError);
  });
});
