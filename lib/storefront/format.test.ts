import { describe, expect, it } from "vitest";
import { displayPrice, isoInZone, moneyString, safeTimeZone } from "./format";
import { toYaml } from "./markdown";
import { parse } from "yaml";

describe("isoInZone", () => {
  it.each([
    ["2026-12-10T17:00:00Z", "America/New_York", "2026-12-10T12:00:00-05:00"],
    ["2026-07-10T17:00:00Z", "America/New_York", "2026-07-10T13:00:00-04:00"],
    ["2027-01-16T14:00:00Z", "Europe/Lisbon", "2027-01-16T14:00:00+00:00"],
    ["2027-02-04T09:00:00Z", "Asia/Tokyo", "2027-02-04T18:00:00+09:00"],
    ["2027-01-16T00:30:00Z", "Asia/Kolkata", "2027-01-16T06:00:00+05:30"],
    ["2027-01-16T00:30:00Z", "UTC", "2027-01-16T00:30:00+00:00"],
    ["2027-01-16T00:30:00Z", "Not/AZone", "2027-01-16T00:30:00+00:00"],
  ])("%s in %s", (instant, zone, expected) => {
    const out = isoInZone(new Date(instant), zone);
    expect(out).toBe(expected);
    expect(new Date(out).getTime()).toBe(new Date(instant).getTime());
  });

  it("unknown zones fall back to UTC", () => expect(safeTimeZone("Mars/Base")).toBe("UTC"));
});

describe("money", () => {
  it("keeps two decimals as a string", () => {
    expect(moneyString({ toFixed: (d: number) => (9.5).toFixed(d) })).toBe("9.50");
    expect(moneyString("49")).toBe("49.00");
    expect(displayPrice("0.00", "USD")).toBe("Free (0.00 USD)");
    expect(displayPrice("49.00", "EUR")).toBe("49.00 EUR");
  });
});

describe("toYaml", () => {
  it("quotes every string so dates and prices survive YAML 1.1 and 1.2 parsers", () => {
    const text = toYaml({ price: "49.00", updated: "2026-01-15T09:00:00.000Z", title: 'He said "hi": yes\nno', count: 3, none: null, answer: "yes" });
    expect(text).toContain('price: "49.00"');
    expect(text).toContain('updated: "2026-01-15T09:00:00.000Z"');
    for (const version of ["1.1", "1.2"] as const) {
      expect(parse(text, { version })).toEqual({ price: "49.00", updated: "2026-01-15T09:00:00.000Z", title: 'He said "hi": yes\nno', count: 3, none: null, answer: "yes" });
    }
  });
});
