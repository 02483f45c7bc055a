import { describe, expect, it } from "vitest";
import { adjacentMean, combineRatios, derivedRatios, percentile, ratios } from "./stats";

describe("percentile", () => {
  it("uses nearest rank on unsorted samples", () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(samples, 50)).toBe(5);
    expect(percentile(samples, 99)).toBe(10);
    expect(percentile(samples, 10)).toBe(1);
    expect(percentile([0.25], 99)).toBe(0.25);
  });

  it("is NaN without samples", () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("adjacentMean", () => {
  it("averages the baselines either side, or takes the one that exists", () => {
    const a = { requestsPerSec: 1000, p50Ms: 2, p99Ms: 10 };
    const b = { requestsPerSec: 800, p50Ms: 4, p99Ms: 20 };
    expect(adjacentMean(a, b)).toEqual({ requestsPerSec: 900, p50Ms: 3, p99Ms: 15 });
    expect(adjacentMean(undefined, b)).toEqual(b);
    expect(adjacentMean(undefined, undefined)).toBeUndefined();
  });

  it("leaves out the latency of a segment without good responses", () => {
    const a = { requestsPerSec: 1000, p50Ms: 2, p99Ms: 10 };
    const empty = { requestsPerSec: 0, p50Ms: Number.NaN, p99Ms: Number.NaN };
    expect(adjacentMean(a, empty)).toEqual({ requestsPerSec: 500, p50Ms: 2, p99Ms: 10 });
  });
});

describe("ratios", () => {
  it("divides throughput and latency by the reference", () => {
    const r = ratios({ requestsPerSec: 450, p50Ms: 6, p99Ms: 30 }, { requestsPerSec: 900, p50Ms: 3, p99Ms: 15 });
    expect(r).toEqual({ throughput: 0.5, p50: 2, p99: 2 });
  });

  it("gives NaN rather than Infinity against an empty reference", () => {
    expect(ratios({ requestsPerSec: 1, p50Ms: 1, p99Ms: 1 }, { requestsPerSec: 0, p50Ms: 0, p99Ms: 0 }).throughput).toBeNaN();
  });

  it("combines rounds with a geometric mean", () => {
    const c = combineRatios([
      { throughput: 0.5, p50: 2, p99: 4 },
      { throughput: 2, p50: 2, p99: 1 },
    ])!;
    expect(c.throughput).toBeCloseTo(1);
    expect(c.p50).toBeCloseTo(2);
    expect(c.p99).toBeCloseTo(2);
  });
});

describe("derivedRatios", () => {
  it("divides a workload's baseline ratios by a reference's (floor or proxied bare route), drift cancelled", () => {
    // The workload ran at 0.6 of its baselines, the reference at 0.8 of its own: 0.75 of the reference.
    const r = derivedRatios({ throughput: 0.6, p50: 2, p99: 3 }, { throughput: 0.8, p50: 1, p99: 1.5 });
    expect(r.throughput).toBeCloseTo(0.75, 9);
    expect(r.p50).toBeCloseTo(2, 9);
    expect(r.p99).toBeCloseTo(2, 9);
    expect(derivedRatios({ throughput: 0.6, p50: 2, p99: 3 }, { throughput: 0, p50: 1, p99: 1 }).throughput).toBeNaN();
  });
});
