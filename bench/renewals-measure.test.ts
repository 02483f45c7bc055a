import { describe, expect, it } from "vitest";
import { dueRenewalStatements } from "./renewal-dataset";
import { renewalSizes, renewalsReport, type RenewalRun } from "./renewals-measure";

const run = (count: number, seconds: number, renewed = count, payments = count, cpuMsPerItem = 1): RenewalRun => ({
  count,
  seconds,
  itemsPerSec: count / seconds,
  cpuMsPerItem,
  generateSeconds: 0.1,
  outcomes: { succeeded: renewed },
  renewed,
  succeededPayments: payments,
});

describe("the renewals scenario", () => {
  it("runs a tenth of the size, then the size", () => {
    expect(renewalSizes(100_000)).toEqual([10_000, 100_000]);
    expect(renewalSizes(5)).toEqual([1, 5]);
  });

  it("reports the per-item rate against floor-write and the flat-cost ratio, with the issue's targets", () => {
    const r = renewalsReport([run(1_000, 2), run(10_000, 25)], 800);
    expect(r.status).toBe("ok");
    expect(r.ratioToFloorWrite).toBe(0.5); // 400/s ÷ 800/s
    expect(r.floorWriteMet).toBe(true);
    expect(r.flatCostRatio).toBe(0.8); // 400/s at 10,000 ÷ 500/s at 1,000
    expect(r.flatCostMet).toBe(true);
    expect(r.flatCpuRatio).toBe(1);
    // CPU per item: 1.5 ms at 1,000 ÷ 2 ms at 10,000 (reported, not a target).
    expect(renewalsReport([run(1_000, 2, 1_000, 1_000, 1.5), run(10_000, 20, 10_000, 10_000, 2)], 800).flatCpuRatio).toBe(0.75);
    const slow = renewalsReport([run(1_000, 2), run(10_000, 40)], null);
    expect(slow).toMatchObject({ ratioToFloorWrite: null, floorWriteMet: null, flatCostRatio: 0.5, flatCostMet: false });
  });

  it("is errors when any due subscription was not renewed with one succeeded payment", () => {
    const r = renewalsReport([run(10, 1), run(100, 10, 99, 99)], 100);
    expect(r.status).toBe("errors");
    expect(r.reason).toBe("100 due: 99 renewed, 99 succeeded payments");
  });

  it("generates the due set with SQL only from checked values", () => {
    const school = "5c400000-0000-4000-8000-000000000001";
    const plan = "5c400000-0000-4000-8000-000300000001";
    const sql = dueRenewalStatements({ schoolId: school, planId: plan, count: 3, tag: "a1" }).join("\n");
    expect(sql).toContain("generate_series(0, 2)");
    expect(sql).toContain("'charge_automatically', 'pm_card_visa'");
    expect(() => dueRenewalStatements({ schoolId: "x'; DROP TABLE", planId: plan, count: 3, tag: "a" })).toThrow(/UUIDs/);
    expect(() => dueRenewalStatements({ schoolId: school, planId: plan, count: 3, tag: "a'" })).toThrow(/tag/);
    expect(() => dueRenewalStatements({ schoolId: school, planId: plan, count: 0, tag: "a" })).toThrow(/count/);
  });
});
