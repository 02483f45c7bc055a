import { describe, expect, it } from "vitest";
import { addInterval } from "./time";

const d = (s: string) => new Date(s);

describe("addInterval", () => {
  it("adds days and weeks as fixed lengths", () => {
    expect(addInterval(d("2026-11-21T12:00:00Z"), "day", 90)).toEqual(d("2027-02-19T12:00:00Z"));
    expect(addInterval(d("2026-11-21T12:00:00Z"), "week", 2)).toEqual(d("2026-12-05T12:00:00Z"));
  });

  it("adds calendar months and years, clamped to the end of a shorter month", () => {
    expect(addInterval(d("2026-01-31T08:00:00Z"), "month", 1)).toEqual(d("2026-02-28T08:00:00Z"));
    expect(addInterval(d("2028-01-31T08:00:00Z"), "month", 1)).toEqual(d("2028-02-29T08:00:00Z"));
    expect(addInterval(d("2026-11-21T12:00:00Z"), "month", 3)).toEqual(d("2027-02-21T12:00:00Z"));
    expect(addInterval(d("2028-02-29T00:00:00Z"), "year", 1)).toEqual(d("2029-02-28T00:00:00Z"));
    expect(addInterval(d("2026-11-21T12:00:00Z"), "year", -1)).toEqual(d("2025-11-21T12:00:00Z"));
  });
});
