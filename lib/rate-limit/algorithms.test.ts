import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "./config";
import { bucketBalance, msUntilFull, msUntilPositive, SlidingLog } from "./algorithms";

describe("SlidingLog", () => {
  it("keeps (now - window, now] and knows when it admits again", () => {
    const log = new SlidingLog();
    for (const t of [1000, 2000, 3000]) log.insert(t);
    log.prune(61_000, 60_000); // 1000 is exactly 60 s old: gone
    expect(log.length).toBe(2);
    expect(log.freeAt(2, 60_000)).toBe(62_000);
    expect(log.freeAt(5, 60_000)).toBe(62_000);
    log.prune(1_000_000, 60_000);
    expect(log.freeAt(2, 60_000)).toBeNull();
  });
  it("stays ordered when the clock goes backwards, and survives compaction", () => {
    const log = new SlidingLog();
    for (let t = 0; t < 5000; t++) log.insert(t);
    log.insert(4500.5);
    log.prune(63_000, 60_000); // drops 0..3000, compacts
    expect(log.length).toBe(2000);
    expect(log.at(0)).toBe(3001);
    expect(log.at(1499)).toBe(4500);
    expect(log.at(1500)).toBe(4500.5);
    // With more entries than the limit, the one that must leave is count - limit from the front.
    expect(log.freeAt(1000, 60_000)).toBe(log.at(1000)! + 60_000);
  });
});

describe("runtime bucket", () => {
  it("refills continuously, caps at the budget, and times debt exactly", () => {
    expect(bucketBalance(undefined, 0, DEFAULT_LIMITS)).toBe(60_000);
    expect(bucketBalance({ balanceMs: -500, at: 1000 }, 1250, DEFAULT_LIMITS)).toBe(-250);
    expect(bucketBalance({ balanceMs: 59_000, at: 0 }, 5000, DEFAULT_LIMITS)).toBe(60_000);
    expect(bucketBalance({ balanceMs: 10, at: 5000 }, 4000, DEFAULT_LIMITS)).toBe(10); // no refill backwards
    expect(msUntilPositive(-500, DEFAULT_LIMITS)).toBe(501);
    expect(msUntilPositive(0, DEFAULT_LIMITS)).toBe(1);
    expect(msUntilPositive(0.5, DEFAULT_LIMITS)).toBe(0);
    expect(msUntilFull(-500, DEFAULT_LIMITS)).toBe(60_500);
    const half = { ...DEFAULT_LIMITS, runtimeBudgetMs: 30_000 }; // 0.5 ms per ms
    expect(msUntilPositive(-500, half)).toBe(1001);
  });
});
