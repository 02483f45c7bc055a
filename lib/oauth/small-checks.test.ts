import { describe, expect, it } from "vitest";
import { isValidCodeVerifier, s256, verifyPkce } from "./pkce";
import { redirectUriMatches } from "./redirect-uri";
import { sortRoles } from "../core/roles";
import { formatScope, grantableScopes, parseScope, unknownScopes } from "./scopes";

describe("sortRoles", () => {
  it("puts built-ins in privilege order, then custom roles alphabetically", () => {
    expect(sortRoles(["student", "content_reviewer", "teacher", "alumni"])).toEqual(["teacher", "student", "alumni", "content_reviewer"]);
    expect(sortRoles(["teaching_assistant", "owner", "admin", "manager", "student", "teacher"])).toEqual([
      "owner", "manager", "admin", "teacher", "teaching_assistant", "student",
    ]);
    expect(sortRoles(["zeta", "Alpha", "beta", "zeta"])).toEqual(["Alpha", "beta", "zeta"]);
    expect(sortRoles([])).toEqual([]);
  });
});

describe("PKCE", () => {
  it("matches the RFC 7636 appendix B example", () => {
    expect(s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    expect(verifyPkce("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(true);
  });

  it("checks verifier length 43–128 and characters", () => {
    expect(isValidCodeVerifier("a".repeat(43))).toBe(true);
    expect(isValidCodeVerifier("a".repeat(128))).toBe(true);
    expect(isValidCodeVerifier("a".repeat(42))).toBe(false);
    expect(isValidCodeVerifier("a".repeat(129))).toBe(false);
    expect(isValidCodeVerifier("a".repeat(42) + "+")).toBe(false);
  });
});

describe("redirectUriMatches", () => {
  it.each([
    ["http://127.0.0.1/callback", "http://127.0.0.1:5000/callback", true],
    ["http://localhost/callback", "http://localhost:1/callback", true],
    ["http://[::1]/cb", "http://[::1]:8080/cb", true],
    ["http://127.0.0.1/callback", "http://127.0.0.1:5000/other", false],
    ["http://127.0.0.1/callback", "http://localhost:5000/callback", false],
    ["https://app.example/cb", "https://app.example/cb", true],
    ["https://app.example/cb", "https://app.example:443/cb/", false],
    ["https://app.example/cb", "https://APP.example/cb", false],
    ["https://app.example:8443/cb", "https://app.example:9443/cb", false],
  ])("%s vs %s → %s", (registered, requested, expected) => {
    expect(redirectUriMatches(registered, requested)).toBe(expected);
  });
});

describe("scopes", () => {
  it("parses, formats and filters", () => {
    expect(parseScope(" openid  email openid ")).toEqual(["openid", "email"]);
    expect(formatScope(["profile", "email", "openid"])).toBe("email openid profile");
    expect(unknownScopes(["openid", "admin"])).toEqual(["admin"]);
    expect(grantableScopes(["openid", "students:read", "offline_access"], "openid profile")).toEqual(["openid", "offline_access"]);
  });
});
