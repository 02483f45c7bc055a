import { describe, expect, it } from "vitest";
import { benchOptions, QUICK_MEMBERS, QUICK_RENEWALS } from "./options";

// The member-search dataset is generated before its workload runs: a quick run (and the suite's
// smoke run, tests/e2e/bench-smoke.spec.ts, which has four minutes) must not build the full one.
describe("bench options: the member-search dataset's size", () => {
  it("is the full 200,000 members for a recorded run, a small one for --quick, and --members wins", () => {
    expect(benchOptions([]).members).toBe(200_000);
    expect(benchOptions(["--quick"]).members).toBe(QUICK_MEMBERS);
    expect(QUICK_MEMBERS).toBeLessThanOrEqual(5_000);
    expect(benchOptions(["--quick", "--members", "20000"]).members).toBe(20_000);
  });
});

describe("bench options: the peer comparison", () => {
  it("runs in a full run and with --only peer, not with other --only lists or a profile", () => {
    expect(benchOptions([]).wantPeer).toBe(true);
    expect(benchOptions(["--only", "peer"]).wantPeer).toBe(true);
    expect(benchOptions(["--only", "peer"]).selected).toEqual([]);
    expect(benchOptions(["--only", "introspect"]).wantPeer).toBe(false);
    expect(benchOptions(["--only", "introspect"]).selected.map((w) => w.id)).toEqual(["floor-read", "introspect"]);
    expect(benchOptions(["--profile", "baseline"]).wantPeer).toBe(false);
  });
});

describe("bench options: the renewals scenario", () => {
  it("runs the issue's 100,000 (after 10,000) in a full run, a few in --quick, --renewals wins, and --only renewals brings floor-write", () => {
    expect(benchOptions([]).renewals).toBe(100_000);
    expect(benchOptions(["--only", "renewals"]).renewals).toBe(100_000);
    expect(benchOptions(["--quick"]).renewals).toBe(QUICK_RENEWALS);
    expect(benchOptions(["--renewals", "20000"]).renewals).toBe(20_000);
    expect(benchOptions(["--only", "renewals"]).selected.map((w) => w.id)).toEqual(["floor-write"]);
    expect(benchOptions(["--only", "peer"]).renewals).toBe(0);
  });
});
