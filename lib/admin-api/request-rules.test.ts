import { describe, expect, it } from "vitest";
import { API_VERSIONS, CURRENT_API_VERSION, resolveApiVersion } from "./api-version";
import { authorizeCron } from "./cron";
import { ApiVersionError } from "./errors";

describe("API-Version", () => {
  it("absent or empty means the current version", () => {
    expect(resolveApiVersion(new Headers())).toBe(CURRENT_API_VERSION);
    expect(resolveApiVersion(new Headers({ "api-version": " " }))).toBe(CURRENT_API_VERSION);
    expect(API_VERSIONS).toContain(CURRENT_API_VERSION);
  });

  it("accepts listed values and refuses others with the list", () => {
    expect(resolveApiVersion(new Headers({ "api-version": "2026-01" }))).toBe("2026-01");
    expect(() => resolveApiVersion(new Headers({ "api-version": "2099-01" }))).toThrow(ApiVersionError);
    expect(() => resolveApiVersion(new Headers({ "api-version": "2099-01" }))).toThrow(/Accepted values: 2026-01/);
  });
});

describe("authorizeCron", () => {
  const secret = "0123456789abcdef0123";
  it("refuses everything when no secret is configured", () => {
    expect(authorizeCron({ headers: new Headers({ authorization: "Bearer x" }), secret: undefined })).toMatchObject({ ok: false, status: 503 });
  });
  it("accepts only Authorization: Bearer <secret>", () => {
    expect(authorizeCron({ headers: new Headers({ authorization: `Bearer ${secret}` }), secret })).toEqual({ ok: true });
    expect(authorizeCron({ headers: new Headers({ authorization: `bearer ${secret}` }), secret })).toEqual({ ok: true });
    const attempts: Record<string, string>[] = [{}, { authorization: secret }, { authorization: `Bearer ${secret}x` }, { authorization: "Basic abc" }];
    for (const h of attempts) {
      expect(authorizeCron({ headers: new Headers(h), secret })).toMatchObject({ ok: false, status: 401 });
    }
  });
});
