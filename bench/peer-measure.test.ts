import { describe, expect, it } from "vitest";
import { peerRatios, sideMeasurement, type Segment } from "./peer-measure";
import { cpuBetween } from "./proc-cpu";

const seg = (rps: number, p50: number, p99: number, requests: number, cpuMs: number, dbCpuMs: number | null = null, failures = 0): Segment => ({
  requestsPerSec: rps,
  p50Ms: p50,
  p99Ms: p99,
  requests,
  good: requests - failures,
  bad: failures,
  non2xx: 0,
  errors: 0,
  statusCodes: { 200: requests },
  durationSec: 1,
  cpuMs,
  dbCpuMs,
});

describe("ours against the peer: ratios", () => {
  it("compares each of our segments with the mean of the peer segments either side", () => {
    // Peer 100 then 300 req/s around ours at 100: ours ÷ mean(100, 300) = 0.5.
    const r = peerRatios([seg(100, 2, 10, 100, 100), seg(300, 6, 30, 300, 300)], [seg(100, 8, 40, 100, 400)]);
    expect(r.throughput).toBe(0.5);
    expect(r.p50).toBe(2);
    expect(r.p99).toBe(2);
    // CPU per request: ours 4 ms, peer 1 ms on both sides.
    expect(r.cpuPerRequest).toBe(4);
    expect(r.dbCpuPerRequest).toBeNull();
  });

  it("combines pairs by geometric mean, and the database's CPU when every segment has it", () => {
    const peer = [seg(100, 1, 1, 100, 100, 50), seg(100, 1, 1, 100, 100, 50), seg(100, 1, 1, 100, 100, 50)];
    const ours = [seg(200, 1, 1, 200, 200, 200), seg(50, 1, 1, 50, 50, 25)];
    const r = peerRatios(peer, ours);
    expect(r.throughput).toBe(1); // √(2 × 0.5)
    expect(r.cpuPerRequest).toBe(1);
    expect(r.dbCpuPerRequest).toBe(1.414); // √(2 × 1)
  });

  it("refuses a sequence that does not alternate peer, ours, …, peer", () => {
    expect(() => peerRatios([seg(1, 1, 1, 1, 1)], [seg(1, 1, 1, 1, 1), seg(1, 1, 1, 1, 1)])).toThrow(/n \+ 1 A segments/);
  });

  it("sums a side's CPU over every response and counts its failures", () => {
    const m = sideMeasurement([seg(100, 2, 10, 100, 150, 10), seg(300, 4, 20, 300, 250, 30, 3)]);
    expect(m).toMatchObject({ requestsPerSec: 200, p50Ms: 3, p99Ms: 15, requests: 400, failures: 3, cpuMsPerRequest: 1, dbCpuMsPerRequest: 0.1 });
    expect(sideMeasurement([seg(1, 1, 1, 1, 1, null)]).dbCpuMsPerRequest).toBeNull();
  });
});

describe("CPU of pids that come and go", () => {
  it("counts a pid new at the end whole and never a negative difference", () => {
    const before = new Map([[1, 100], [2, 50]]);
    const after = new Map([[1, 130], [2, 40], [3, 7]]);
    expect(cpuBetween(before, after)).toBe(37);
  });
});
