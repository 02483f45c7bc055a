import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { randomToken } from "./secret";

const decoded = (token: string) => Buffer.from(token, "base64url");

describe("randomToken", () => {
  it("is `bytes` random bytes in base64url, whatever the sizes asked before it", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 12 }), (sizes) => {
        for (const bytes of sizes) {
          const token = randomToken(bytes);
          expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(decoded(token)).toHaveLength(bytes);
          expect(decoded(token).toString("base64url")).toBe(token);
        }
      }),
      { seed: 20261129, numRuns: 200 },
    );
  });

  it("never hands out the same bytes twice, across many refills of its pool", () => {
    const seen = new Set<string>();
    // 20,000 tokens of 32 bytes: the 4 KB pool is refilled 156 times.
    for (let i = 0; i < 20_000; i++) seen.add(randomToken());
    expect(seen.size).toBe(20_000);
  });

  it("never hands out zeroed bytes (the pool's bytes are zeroed as they are issued)", () => {
    // A token read from bytes already issued would be all zeros: 32 zero bytes happen by chance
    // with probability 2^-256.
    const zeros = Buffer.alloc(32).toString("base64url");
    for (let i = 0; i < 2_000; i++) expect(randomToken()).not.toBe(zeros);
  });

  it("looks uniform: every byte value appears, none far more often than the others", () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1_000; i++) for (const b of decoded(randomToken(64))) counts[b]!++;
    // 64,000 bytes: 250 expected per value; a fair source stays within 250 ± 80 (5 standard deviations).
    expect(Math.min(...counts)).toBeGreaterThan(170);
    expect(Math.max(...counts)).toBeLessThan(330);
  });

  it("refuses sizes it cannot serve from one pool", () => {
    for (const bytes of [0, -1, 4097, 1.5, Number.NaN]) expect(() => randomToken(bytes)).toThrow(RangeError);
  });
});
