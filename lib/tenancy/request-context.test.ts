import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { baseUrlContext, requestContext } from "./request-context";

// The origin and host rules of the one request context; the school it loads (lazily, once, through
// the cache, stale during an outage) is tested against a database in tests/integration/request-context.test.ts.

function withEnv(vars: Record<string, string>) {
  for (const [k, v] of Object.entries(vars)) process.env[k] = v;
  resetEnvCache();
}
afterEach(() => {
  delete process.env.TRUST_PROXY;
  delete process.env.PLATFORM_DOMAIN;
  resetEnvCache();
});

const request = (headers: Record<string, string>, url = "http://internal:3000/x") => ({ url, headers: new Headers(headers) });
const forwarded = { host: "internal:3000", "x-forwarded-host": "demo.schoolhouse.app", "x-forwarded-proto": "https" };

describe("requestContext", () => {
  it("takes scheme and host from forwarded headers only behind a trusted proxy", () => {
    withEnv({ PLATFORM_DOMAIN: "schoolhouse.app" });
    const direct = requestContext(request(forwarded));
    expect(direct.origin).toBe("http://internal:3000");
    expect(direct.scheme).toBe("http");
    expect(direct.match).toEqual({ kind: "custom-domain", domain: "internal" });

    withEnv({ PLATFORM_DOMAIN: "schoolhouse.app", TRUST_PROXY: "1" });
    const proxied = requestContext(request(forwarded));
    expect(proxied.origin).toBe("https://demo.schoolhouse.app");
    expect(proxied.scheme).toBe("https");
    expect(proxied.match).toEqual({ kind: "subdomain", subdomain: "demo" });
  });

  it("never believes X-Forwarded-Proto without a trusted proxy: next start serves plain http", () => {
    withEnv({ PLATFORM_DOMAIN: "schoolhouse.app" });
    const ctx = requestContext(request({ host: "demo.schoolhouse.app", "x-forwarded-proto": "https" }, "https://demo.schoolhouse.app/"));
    expect(ctx.origin).toBe("http://demo.schoolhouse.app");
  });

  it("names custom domains, subdomains and the bare platform host (and www, and loopback), keeping the port in the origin", () => {
    withEnv({ PLATFORM_DOMAIN: "localhost" });
    const at = (host: string) => requestContext(request({ host }));
    expect(at("Learn.Acme.Test")).toMatchObject({ origin: "http://learn.acme.test", match: { kind: "custom-domain", domain: "learn.acme.test" } });
    expect(at("demo.localhost:3000")).toMatchObject({ origin: "http://demo.localhost:3000", match: { kind: "subdomain", subdomain: "demo" } });
    expect(at("localhost:3000")).toMatchObject({ origin: "http://localhost:3000", match: { kind: "bare" } });
    expect(at("127.0.0.1:4000").match).toEqual({ kind: "bare" });
    withEnv({ PLATFORM_DOMAIN: "schoolhouse.app" });
    expect(at("www.schoolhouse.app").match).toEqual({ kind: "bare" });
    expect(at("a.b.schoolhouse.app").match).toEqual({ kind: "invalid" });
  });

  it("builds no URL from an invalid host: the origin falls back to the platform domain", () => {
    withEnv({ PLATFORM_DOMAIN: "schoolhouse.app" });
    const ctx = requestContext(request({ host: "localhost:abc" }));
    expect(ctx.match).toEqual({ kind: "invalid" });
    expect(ctx.origin).toBe("http://schoolhouse.app");
  });

  it("without a Host header (in-process callers), takes the host of the request's URL", () => {
    withEnv({ PLATFORM_DOMAIN: "localhost" });
    expect(requestContext(request({}, "http://demo.localhost:3000/mcp")).origin).toBe("http://demo.localhost:3000");
  });

  it("is built once per request: every caller with the request's headers gets the same context", () => {
    withEnv({ PLATFORM_DOMAIN: "localhost" });
    const r = request({ host: "demo.localhost" });
    const ctx = requestContext(r);
    expect(requestContext({ headers: r.headers })).toBe(ctx);
    expect(requestContext(request({ host: "demo.localhost" }))).not.toBe(ctx);
  });
});

describe("baseUrlContext", () => {
  it("applies the same host rule to an explicit base URL, whose scheme is taken as given", () => {
    withEnv({ PLATFORM_DOMAIN: "schoolhouse.app" });
    expect(baseUrlContext("https://Demo.Schoolhouse.App/ignored?x=1")).toMatchObject({ origin: "https://demo.schoolhouse.app", scheme: "https", match: { kind: "subdomain", subdomain: "demo" } });
    expect(baseUrlContext("http://learn.acme.test:8080")).toMatchObject({ origin: "http://learn.acme.test:8080", match: { kind: "custom-domain" } });
  });
});
