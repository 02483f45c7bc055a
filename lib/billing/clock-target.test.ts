import { describe, expect, it } from "vitest";
import { parseClockTarget } from "./clock-target";

describe("parseClockTarget", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it("reads ISO times and +<n>d/h/m after the clock", () => {
    expect(parseClockTarget("2027-01-01T00:00:00Z", now).toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(parseClockTarget("+30d", now).toISOString()).toBe("2026-12-21T12:00:00.000Z");
    expect(parseClockTarget("+2h", now).toISOString()).toBe("2026-11-21T14:00:00.000Z");
    expect(parseClockTarget("+5m", now).toISOString()).toBe("2026-11-21T12:05:00.000Z");
  });
  it("refuses anything else", () => {
    for (const bad of ["tomorrow", "+3w", "-1d", "", "1700000000"]) expect(() => parseClockTarget(bad, now)).toThrow(/--to must be/);
  });
});
