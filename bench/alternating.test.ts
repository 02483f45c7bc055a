import { describe, expect, it } from "vitest";
import { alternate, alternatingRatios, codesNeeded, headToHeadPairs, peerPairs, refreshTokensNeeded, sideMeasurement, withCpu } from "./alternating";
import type { Settings } from "./options";
import { segment } from "./segment-fixture";


describe("alternating A, B, …, A: the ratios B ÷ A", () => {
  it("compares each B segment with the mean of the A segments either side, throughput, latency and CPU per request alike", () => {
    // A drifts from 300 to 200 req/s while B runs at 225: B ÷ mean(300, 200) = 0.9, not 0.75 or 1.125.
    // CPU per request: A 2 ms then 3 ms (mean 2.5), B 2.75 ms: × 1.1.
    const r = alternatingRatios([segment({ rps: 300, cpuMs: 600, p50: 2, p99: 10 }), segment({ rps: 200, cpuMs: 600, p50: 4, p99: 30 })], [segment({ rps: 225, cpuMs: 618.75, p50: 6, p99: 40 })]);
    expect(r.throughput).toBe(0.9);
    expect(r.p50).toBe(2);
    expect(r.p99).toBe(2);
    expect(r.cpuPerRequest).toBe(1.1);
    expect(r.pairThroughput).toEqual([0.9]);
  });

  it("combines the pairs by geometric mean and keeps each pair's throughput, in run order", () => {
    const a = [segment({ rps: 100, cpuMs: 100 }), segment({ rps: 100, cpuMs: 100 }), segment({ rps: 100, cpuMs: 100 }), segment({ rps: 100, cpuMs: 100 })];
    // Pairs 0.8, 1.25 and 1: geometric mean 1, though their arithmetic mean is 1.017.
    const b = [segment({ rps: 80, cpuMs: 96 }), segment({ rps: 125, cpuMs: 125 }), segment({ rps: 100, cpuMs: 100 })];
    const r = alternatingRatios(a, b);
    expect(r.throughput).toBe(1);
    expect(r.pairThroughput).toEqual([0.8, 1.25, 1]);
    // CPU per request 1.2, 1 and 1 ms against 1 ms: ∛1.2.
    expect(r.cpuPerRequest).toBe(1.063);
  });

  it("reports the database's CPU per request only when every segment of both arms has it", () => {
    const a = [segment({ rps: 100, cpuMs: 100, dbCpuMs: 50 }), segment({ rps: 100, cpuMs: 100, dbCpuMs: 50 })];
    expect(alternatingRatios(a, [segment({ rps: 100, cpuMs: 100, dbCpuMs: 60 })]).dbCpuPerRequest).toBe(1.2);
    expect(alternatingRatios([a[0]!, segment({ rps: 100, cpuMs: 100 })], [segment({ rps: 100, cpuMs: 100, dbCpuMs: 60 })]).dbCpuPerRequest).toBeNull();
  });

  it("gives no CPU ratio (NaN) when an arm answered nothing, rather than 0 or Infinity", () => {
    const r = alternatingRatios([segment({ rps: 100, cpuMs: 100 }), segment({ rps: 100, cpuMs: 100 })], [segment({ rps: 0, cpuMs: 50 })]);
    expect(r.cpuPerRequest).toBeNaN();
  });

  it("refuses a sequence that does not begin and end with A", () => {
    expect(() => alternatingRatios([segment({ rps: 1, cpuMs: 1 })], [segment({ rps: 1, cpuMs: 1 }), segment({ rps: 1, cpuMs: 1 })])).toThrow(/n \+ 1 A segments/);
    expect(() => alternatingRatios([segment({ rps: 1, cpuMs: 1 })], [])).toThrow(/n \+ 1 A segments/);
  });

  it("runs A first and last, B between every two A's", async () => {
    const order: string[] = [];
    const fake = (name: string) => async () => {
      order.push(name);
      return segment({ rps: 1, cpuMs: 1 });
    };
    const { a, b } = await alternate({ pairs: 3, a: fake("A"), b: fake("B") });
    expect(order.join("")).toBe("ABABABA");
    expect([a.length, b.length]).toEqual([4, 3]);
  });

  it("sums an arm's CPU over every response", () => {
    const m = sideMeasurement([segment({ rps: 100, cpuMs: 150, dbCpuMs: 10 }), segment({ rps: 300, cpuMs: 250, dbCpuMs: 30 })]);
    expect(m).toMatchObject({ requestsPerSec: 200, requests: 400, failures: 0, cpuMsPerRequest: 1, dbCpuMsPerRequest: 0.1 });
  });

  it("reads the CPU a segment cost from /proc (this process's tree here) and leaves the database out when it has no backends to read", async () => {
    const s = await withCpu({ pid: process.pid, dbPids: null }, async () => {
      // Burn 60 ms of this process's own CPU, not of wall time: with another process on the cores,
      // 60 ms of wall time can be much less CPU than the assertion below reads.
      const start = process.cpuUsage();
      const spent = () => { const d = process.cpuUsage(start); return (d.user + d.system) / 1000; };
      while (spent() < 60);
      return segment({ rps: 1, cpuMs: 0 });
    });
    expect(s.cpuMs).toBeGreaterThanOrEqual(40);
    expect(s.dbCpuMs).toBeNull();
  });
});

describe("what a backend's run consumes", () => {
  const full: Settings = { segmentSeconds: 3, warmupSeconds: 1, rounds: 1, connections: 8 };
  const quick: Settings = { segmentSeconds: 1, warmupSeconds: 1, rounds: 1, connections: 8 };

  // token-refresh, the busiest refresh arm, in the order measure.ts and peer-measure.ts run it.
  const refreshSegments = (s: Settings, q: boolean) => {
    const warm = s.warmupSeconds > 0 ? 1 : 0;
    return warm + s.rounds + (warm + headToHeadPairs(q) + 1) + (warm + peerPairs(q));
  };

  it.each([
    ["a full run", full, false],
    ["--quick", quick, true],
    ["--rounds 3 --connections 16 --warmup 0", { ...full, rounds: 3, connections: 16, warmupSeconds: 0 }, false],
  ] as const)("%s: a refresh pool still has a chain per connection after every segment strands one per connection", (_name, settings, q) => {
    let pool = refreshTokensNeeded(settings, q);
    for (let i = 0; i < refreshSegments(settings, q); i++) {
      expect(pool, `before segment ${i + 1}`).toBeGreaterThanOrEqual(settings.connections);
      pool -= settings.connections;
    }
    expect(pool).toBeGreaterThanOrEqual(settings.connections);
  });

  it("prepares the codes of a full run's and a quick run's defaults (80,000 and 24,000 per kind), and more for longer segments", () => {
    expect(codesNeeded(full, false)).toBe(80_000);
    expect(codesNeeded(quick, true)).toBe(24_000);
    expect(codesNeeded({ ...full, segmentSeconds: 10, rounds: 3 }, false)).toBeGreaterThan(80 * 2_000);
  });
});
