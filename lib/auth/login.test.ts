import { describe, expect, it } from "vitest";
import { FAILURE_DELAY_MAX_MS, failureDelayMs } from "./login";

describe("failureDelayMs", () => {
  it("grows with each failure and is capped", () => {
    expect(failureDelayMs(1)).toBeLessThan(failureDelayMs(2));
    expect(failureDelayMs(4)).toBeLessThan(failureDelayMs(5));
    expect(failureDelayMs(50)).toBe(FAILURE_DELAY_MAX_MS);
  });
});
