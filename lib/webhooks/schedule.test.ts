import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, RETRY_DELAYS_MS, parseRetryAfter, retryDelayMs } from "./schedule";

describe("retry schedule", () => {
  it("grows exponentially-ish from 5 s and spans about three days in total", () => {
    expect(RETRY_DELAYS_MS[0]).toBe(5_000);
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) expect(RETRY_DELAYS_MS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1]!);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeGreaterThan(2.5);
    expect(total / 86_400_000).toBeLessThan(3.5);
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it("jitters by ±20 % and ends after the last step", () => {
    expect(retryDelayMs(1, () => 0)).toBe(4_000);
    expect(retryDelayMs(1, () => 1)).toBe(6_000);
    expect(retryDelayMs(2, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(MAX_ATTEMPTS - 1, () => 0.5)).toBe(RETRY_DELAYS_MS.at(-1));
    expect(retryDelayMs(MAX_ATTEMPTS)).toBeNull();
  });

  it("reads Retry-After as seconds or an HTTP date, capped at a day", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 13:00:00 GMT", now)).toBe(3_600_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("9999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
