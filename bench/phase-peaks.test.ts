import { describe, expect, it } from "vitest";
import { PhasePeaks } from "./phase-peaks";

describe("the server's peak RSS per phase", () => {
  it("keeps each phase's largest reading and reports the largest of all as the backend's peak", () => {
    const p = new PhasePeaks();
    p.note("workloads", 350);
    p.note("workloads", 391.26);
    p.note("fairness", 421.24);
    p.note("head to head", 380);
    // A later, smaller reading never lowers the peak: the last phase is not the whole run.
    p.note("fairness", 300);
    expect(p.peak()).toBe(421.24);
    expect(p.rounded()).toEqual({ workloads: 391.3, "head to head": 380, fairness: 421.2 });
    expect(Object.keys(p.rounded())).toEqual(["workloads", "head to head", "fairness"]);
  });

  it("ignores readings that are not numbers and reports 0 before any", () => {
    const p = new PhasePeaks();
    expect(p.peak()).toBe(0);
    p.note("peer", Number.NaN);
    expect(p.rounded()).toEqual({});
  });
});

describe("the report's backend line", () => {
  it("names each phase's peak after the backend's, and nothing for a report without them", async () => {
    const { phasePeaksText } = await import("./report");
    expect(phasePeaksText({ phasePeakRssMb: { workloads: 391.3, fairness: 421.2 } })).toBe(" (workloads 391, fairness 421)");
    expect(phasePeaksText({})).toBe("");
  });
});
