import { describe, expect, it } from "vitest";
import { largeVsSmall, largeVsSmallTable } from "./large-ratios";
import type { BackendReport, WorkloadReport } from "./measure";

const workload = (id: string, rps: number, vsBaseline: number, p99: number, isFloor = false): WorkloadReport => ({
  id,
  title: id,
  endpoint: "/",
  isFloor,
  isReference: false,
  floor: null,
  target: null,
  targetAgainst: "baseline",
  status: "ok",
  measurement: { requestsPerSec: rps, p50Ms: 1, p99Ms: p99, requests: 1, failures: 0, statusCodes: {} },
  ratios: { throughput: vsBaseline, p50: 1, p99: 1 },
});
const backend = (name: string, workloads: WorkloadReport[]) => ({ name, workloads }) as unknown as BackendReport;

describe("largeVsSmall", () => {
  it("compares each workload of the large backend with its small counterpart, through their baselines", () => {
    const r = largeVsSmall([
      backend("embedded", [workload("courses-query", 999, 0.9, 1)]),
      backend("postgres+memory", [workload("floor-read", 1000, 1, 10, true), workload("courses-query", 1000, 0.5, 10), workload("list", 1000, 0.5, 10)]),
      backend("large-postgres+memory", [workload("floor-read", 500, 0.5, 10, true), workload("courses-query", 800, 0.45, 12), workload("list", 500, 0.25, 30)]),
    ]);
    expect(r).toEqual({
      small: "postgres+memory",
      large: "large-postgres+memory",
      rows: [
        { id: "floor-read", throughput: 0.5, throughputVsBaseline: 0.5, p99: 1, targetMet: null },
        { id: "courses-query", throughput: 0.8, throughputVsBaseline: 0.9, p99: 1.2, targetMet: true },
        { id: "list", throughput: 0.5, throughputVsBaseline: 0.5, p99: 3, targetMet: false },
      ],
    });
    const table = largeVsSmallTable({ scale: 0.1, ...r });
    expect(table).toContain("| list | 0.50 | 0.50 | 3.00 | **missed** |");
    expect(table).toContain("| floor-read | 0.50 | 0.50 | 1.00 | (floor) |");
  });

  it("says so when the run has no large backend", () => {
    expect(largeVsSmall([backend("postgres+memory", [])])).toEqual({ unavailable: expect.any(String) });
  });
});
