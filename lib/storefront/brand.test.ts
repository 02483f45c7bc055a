import { describe, expect, it } from "vitest";
import { brandStyle } from "./brand";

describe("brandStyle", () => {
  it("sets the accent and a readable text colour on it", () => {
    expect(brandStyle("#b5562b")).toEqual({ "--accent": "#b5562b", "--accent-fg": "#ffffff" });
    expect(brandStyle("#ffe08a")).toEqual({ "--accent": "#ffe08a", "--accent-fg": "#000000" });
  });

  it("ignores anything that is not #rrggbb", () => {
    for (const v of [null, undefined, "", "red", "#fff", "#b5562b; background:url(x)", "#b5562bzz"]) expect(brandStyle(v)).toBeUndefined();
  });
});
