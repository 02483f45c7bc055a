import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LruMap } from "./lru-map";

describe("LruMap", () => {
  it("holds at most maxEntries, dropping the least recently set first", () => {
    const m = new LruMap<string, number>(3);
    for (const [i, k] of ["a", "b", "c"].entries()) m.set(k, i);
    expect(m.size).toBe(3);
    m.set("d", 3);
    expect(m.size).toBe(3);
    expect([m.peek("a"), m.peek("b"), m.peek("c"), m.peek("d")]).toEqual([undefined, 1, 2, 3]);
    for (let i = 0; i < 1_000; i++) m.set(`k${i}`, i);
    expect(m.size).toBe(3);
    expect([m.peek("k997"), m.peek("k998"), m.peek("k999")]).toEqual([997, 998, 999]);
  });

  it("get makes an entry the most recently used", () => {
    const m = new LruMap<string, number>(2);
    m.set("a", 1);
    m.set("b", 2);
    expect(m.get("a")).toBe(1);
    m.set("c", 3);
    expect([m.peek("a"), m.peek("b"), m.peek("c")]).toEqual([1, undefined, 3]);
  });

  it("peek leaves the order as it was", () => {
    const m = new LruMap<string, number>(2);
    m.set("a", 1);
    m.set("b", 2);
    expect(m.peek("a")).toBe(1);
    m.set("c", 3);
    expect([m.peek("a"), m.peek("b"), m.peek("c")]).toEqual([undefined, 2, 3]);
  });

  it("set of a present key replaces its value and makes it the most recently used, evicting nothing", () => {
    const m = new LruMap<string, number>(2);
    m.set("a", 1);
    m.set("b", 2);
    m.set("a", 10);
    expect(m.size).toBe(2);
    m.set("c", 3);
    expect([m.peek("a"), m.peek("b"), m.peek("c")]).toEqual([10, undefined, 3]);
  });

  it("delete and clear free room", () => {
    const m = new LruMap<string, number>(2);
    m.set("a", 1);
    m.set("b", 2);
    expect(m.delete("a")).toBe(true);
    expect(m.delete("a")).toBe(false);
    expect(m.get("a")).toBeUndefined();
    m.set("c", 3);
    expect([m.peek("b"), m.peek("c")]).toEqual([2, 3]);
    m.clear();
    expect(m.size).toBe(0);
    expect(m.get("b")).toBeUndefined();
  });

  it("touches a present entry whose value is undefined like any other", () => {
    const m = new LruMap<string, number | undefined>(2);
    m.set("a", undefined);
    m.set("b", 2);
    expect(m.get("a")).toBeUndefined();
    m.set("c", 3);
    expect(m.size).toBe(2);
    expect([m.peek("b"), m.peek("c")]).toEqual([undefined, 3]);
    expect(m.get("zz")).toBeUndefined();
    expect(m.size).toBe(2);
  });

  it("refuses a bound that is not a positive integer", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => new LruMap(bad)).toThrow(RangeError);
  });

  it("answers as an array kept in least recently used order does, over any sequence of operations", () => {
    type Op =
      | { op: "get" | "peek" | "delete"; key: number }
      | { op: "set"; key: number; value: number }
      | { op: "clear" };
    const key = fc.integer({ min: 0, max: 7 });
    // Weighted so sequences fill the map and evict often; clear only now and then (it resets the order).
    // Sequences up to 80 long (size "max": fast-check's default size stops arrays at 10).
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 8, arbitrary: fc.record({ op: fc.constant("set" as const), key, value: fc.integer() }) },
      { weight: 6, arbitrary: fc.record({ op: fc.constant("get" as const), key }) },
      { weight: 3, arbitrary: fc.record({ op: fc.constant("peek" as const), key }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), key }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant("clear" as const) }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(op, { maxLength: 80, size: "max" }), (max, ops) => {
        const m = new LruMap<number, number>(max);
        // The model: [key, value] pairs, least recently used first.
        let model: [number, number][] = [];
        const at = (k: number) => model.findIndex(([mk]) => mk === k);
        for (const o of ops) {
          if (o.op === "clear") {
            m.clear();
            model = [];
            continue;
          }
          const i = at(o.key);
          const found = i < 0 ? undefined : model[i]![1];
          if (o.op === "get") {
            expect(m.get(o.key)).toBe(found);
            if (i >= 0) model.push(...model.splice(i, 1));
          } else if (o.op === "peek") {
            expect(m.peek(o.key)).toBe(found);
          } else if (o.op === "delete") {
            expect(m.delete(o.key)).toBe(i >= 0);
            if (i >= 0) model.splice(i, 1);
          } else if (o.op === "set") {
            m.set(o.key, o.value);
            if (i >= 0) model.splice(i, 1);
            model.push([o.key, o.value]);
            if (model.length > max) model.shift();
          }
          expect(m.size).toBe(model.length);
          for (let k = 0; k <= 7; k++) expect(m.peek(k)).toBe(model[at(k)]?.[1]);
        }
      }),
    );
  });
});
