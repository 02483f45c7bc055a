import { describe, expect, it } from "vitest";
import { isValidHost, matchHost, normalizeHost, requestHost } from "./host";

const ctx = { platformDomain: "schoolhouse.app", trustProxy: false };

describe("matchHost", () => {
  it.each([
    ["demo.schoolhouse.app", { kind: "subdomain", subdomain: "demo" }],
    ["DEMO.Schoolhouse.App:443", { kind: "subdomain", subdomain: "demo" }],
    ["schoolhouse.app", { kind: "bare" }],
    ["www.schoolhouse.app", { kind: "bare" }],
    ["localhost:3000", { kind: "bare" }],
    ["127.0.0.1:3000", { kind: "bare" }],
    ["[::1]:3000", { kind: "bare" }],
    ["learn.example.com", { kind: "custom-domain", domain: "learn.example.com" }],
    ["a.b.schoolhouse.app", { kind: "invalid" }],
    ["bad host", { kind: "invalid" }],
    ["", { kind: "invalid" }],
  ])("%s", (host, expected) => {
    expect(matchHost(host, ctx)).toEqual(expected);
  });

  it("uses subdomains of localhost when the platform domain is localhost", () => {
    expect(matchHost("demo.localhost:3000", { ...ctx, platformDomain: "localhost" })).toEqual({
      kind: "subdomain",
      subdomain: "demo",
    });
  });
});

describe("requestHost", () => {
  const headers = new Headers({ host: "proxy.internal", "x-forwarded-host": "demo.schoolhouse.app, other" });
  it("ignores X-Forwarded-Host unless the proxy is trusted", () => {
    expect(requestHost(headers, { trustProxy: false })).toBe("proxy.internal");
    expect(requestHost(headers, { trustProxy: true })).toBe("demo.schoolhouse.app");
  });
});

describe("normalizeHost", () => {
  it("strips port and trailing dot", () => {
    expect(normalizeHost("Demo.Localhost.:3000")).toBe("demo.localhost");
    expect(normalizeHost(null)).toBeNull();
  });
});

describe("isValidHost", () => {
  it.each(["localhost", "localhost:3000", "demo.schoolhouse.app", "Demo.Localhost.:3000", "127.0.0.1:65535", "[::1]", "[::1]:3000", "[2001:db8::7]:443", "[::ffff:192.0.2.1]", "a"])(
    "accepts %s",
    (host) => expect(isValidHost(host)).toBe(true),
  );
  it.each(["", "[zzz]", "localhost:abc", "a b", "127.0.0.1:99999", "localhost:0", "localhost:", "[::1", "[::1]x", "a..b", "-a.com", "a_b.com", "host:1:2", "é.com", "a\u0000b", `${"a".repeat(254)}`])(
    "refuses %j",
    (host) => expect(isValidHost(host)).toBe(false),
  );
  it("matchHost treats an invalid port as an invalid host", () => {
    expect(matchHost("127.0.0.1:99999", { platformDomain: "localhost", trustProxy: false })).toEqual({ kind: "invalid" });
  });
});
