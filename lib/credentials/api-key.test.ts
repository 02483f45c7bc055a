import { describe, expect, it } from "vitest";
import { apiKeyHash, apiKeyMatches, generateApiKey, parseApiKey } from "./api-key";
import { safeEqual } from "./secret";

describe("API keys", () => {
  it("generates keys that parse back to their prefix and match their hash", () => {
    const { key, prefix, secretHash } = generateApiKey();
    expect(parseApiKey(key)?.prefix).toBe(prefix);
    expect(secretHash).toBe(apiKeyHash(key));
    expect(secretHash).not.toContain(key);
    expect(apiKeyMatches(key, secretHash)).toBe(true);
    expect(apiKeyMatches(key + "x", secretHash)).toBe(false);
  });

  it("refuses malformed keys", () => {
    for (const bad of [null, "", "sh_", "sh_abc_short", "xx_abcdefgh_aaaaaaaaaaaaaaaaaaaaaaaa", "sh_ABCDEFGH_aaaaaaaaaaaaaaaaaaaaaaaa"]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it("compares in constant time regardless of length", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
