import { describe, expect, it } from "vitest";
import { BoundedMemo } from "./bounded-memo";

describe("BoundedMemo", () => {
  it("keeps at most maxEntries, dropping the least recently used", () => {
    const memo = new BoundedMemo<number>({ maxEntries: 3, maxChars: 1000 });
    memo.set("a", 1);
    memo.set("b", 2);
    memo.set("c", 3);
    expect(memo.get("a")).toBe(1); // a is now the most recently used
    memo.set("d", 4);
    expect(memo.size).toBe(3);
    expect(memo.get("b")).toBeUndefined();
    expect([memo.get("a"), memo.get("c"), memo.get("d")]).toEqual([1, 3, 4]);
  });

  it("keeps the keys' total length within maxChars, also when a key is set again", () => {
    const memo = new BoundedMemo<boolean>({ maxEntries: 100, maxChars: 10 });
    memo.set("aaaa", true);
    memo.set("aaaa", true); // counted once
    memo.set("bbbb", true);
    expect([memo.get("aaaa"), memo.get("bbbb")]).toEqual([true, true]);
    memo.set("cccc", true); // 12 chars: the least recently used (aaaa) goes
    expect(memo.get("aaaa")).toBeUndefined();
    expect(memo.size).toBe(2);
    memo.set("x".repeat(11), true); // longer than the bound on its own: nothing of it stays
    expect(memo.size).toBe(0);
  });
});
