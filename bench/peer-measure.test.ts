import { describe, expect, it } from "vitest";
import { peerRatios, sideMeasurement } from "./peer-measure";
import { segment } from "./segment-fixture";
import { cpuBetween } from "./proc-cpu";


describe("ours against the peer: ratios", () => {
  it("compares each of our segments with the mean of the peer segments either side", () => {
    // Peer 100 then 300 req/s around ours at 100: ours ÷ mean(100, 300) = 0.5.
    const r = peerRatios([segment({ rps: 100, cpuMs: 100, p50: 2, p99: 10 }), segment({ rps: 300, cpuMs: 300, p50: 6, p99: 30 })], [segment({ rps: 100, cpuMs: 400, p50: 8, p99: 40 })]);
    expect(r.throughput).toBe(0.5);
    expect(r.p50).toBe(2);
    expect(r.p99).toBe(2);
    // CPU per request: ours 4 ms, peer 1 ms on both sides.
    expect(r.cpuPerRequest).toBe(4);
    expect(r.dbCpuPerRequest).toBeNull();
  });

  it("combines pairs by geometric mean, and the database's CPU when every segment has it", () => {
    const peer = [segment({ rps: 100, cpuMs: 100, dbCpuMs: 50 }), segment({ rps: 100, cpuMs: 100, dbCpuMs: 50 }), segment({ rps: 100, cpuMs: 100, dbCpuMs: 50 })];
    const ours = [segment({ rps: 200, cpuMs: 200, dbCpuMs: 200 }), segment({ rps: 50, cpuMs: 50, dbCpuMs: 25 })];
    const r = peerRatios(peer, ours);
    expect(r.throughput).toBe(1); // √(2 × 0.5)
    expect(r.cpuPerRequest).toBe(1);
    expect(r.dbCpuPerRequest).toBe(1.414); // √(2 × 1)
  });

  it("refuses a sequence that does not alternate peer, ours, …, peer", () => {
    expect(() => peerRatios([segment({ rps: 1, cpuMs: 1 })], [segment({ rps: 1, cpuMs: 1 }), segment({ rps: 1, cpuMs: 1 })])).toThrow(/n \+ 1 A segments/);
  });

  it("sums a side's CPU over every response and counts its failures", () => {
    const m = sideMeasurement([segment({ rps: 100, cpuMs: 150, dbCpuMs: 10, p50: 2, p99: 10 }), segment({ rps: 300, cpuMs: 250, dbCpuMs: 30, p50: 4, p99: 20, failures: 3 })]);
    expect(m).toMatchObject({ requestsPerSec: 200, p50Ms: 3, p99Ms: 15, requests: 400, failures: 3, cpuMsPerRequest: 1, dbCpuMsPerRequest: 0.1 });
    expect(sideMeasurement([segment({ rps: 1, cpuMs: 1 })]).dbCpuMsPerRequest).toBeNull();
  });
});

describe("CPU of pids that come and go", () => {
  it("counts a pid new at the end whole and never a negative difference", () => {
    const before = new Map([[1, 100], [2, 50]]);
    const after = new Map([[1, 130], [2, 40], [3, 7]]);
    expect(cpuBetween(before, after)).toBe(37);
  });
});
