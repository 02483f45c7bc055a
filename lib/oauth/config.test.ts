import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";

describe("OAuth configuration", () => {
  it("defaults: 7200 s access tokens, CIMD documents from any public host, no loopback switch", () => {
    const e = parseEnv({});
    expect(e.OAUTH_ACCESS_TOKEN_TTL_SECONDS).toBe(7200);
    expect(e.OAUTH_CIMD_ALLOWED_HOSTS).toEqual(["*"]);
    // "none" turns CIMD clients off; empty (FOO= in a .env file) is the default.
    expect(parseEnv({ OAUTH_CIMD_ALLOWED_HOSTS: "none" }).OAUTH_CIMD_ALLOWED_HOSTS).toEqual([]);
    expect(parseEnv({ OAUTH_CIMD_ALLOWED_HOSTS: "" }).OAUTH_CIMD_ALLOWED_HOSTS).toEqual(["*"]);
    expect(e.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS).toBe(false);
  });

  it("reads the CIMD allowlist as lower-case host names", () => {
    expect(parseEnv({ OAUTH_CIMD_ALLOWED_HOSTS: " Claude.ai, ,chatgpt.com " }).OAUTH_CIMD_ALLOWED_HOSTS).toEqual(["claude.ai", "chatgpt.com"]);
  });

  it("refuses the loopback test switch outside NODE_ENV=test", () => {
    expect(() => parseEnv({ OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS: "1", NODE_ENV: "production" })).toThrow(/^OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS: /);
    expect(() => parseEnv({ OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS: "1", NODE_ENV: "development" })).toThrow(/only allowed with NODE_ENV=test/);
    expect(parseEnv({ OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS: "1", NODE_ENV: "test" }).OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS).toBe(true);
  });
});
