import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { resetEnvCache } from "@/lib/env";
import { requestContext } from "@/lib/tenancy/request-context";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer, type AppServer } from "../helpers/app-server";

let server: AppServer;

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  await db().school.update({ where: { subdomain: "acme-training" }, data: { customDomain: "learn.acme.test" } });
  clearSchoolCache();
  server = await startAppServer();
});
afterAll(() => server.close());

const host = (h: string, extra: Record<string, string> = {}) => new Headers({ host: h, ...extra });
// A fresh Headers object each call: a new request, so a new context.
const schoolAt = (headers: Headers) => requestContext({ headers }).school();

describe("RequestContext.school", () => {
  it("resolves subdomain, custom domain and bare host in that order", async () => {
    expect((await schoolAt(host("demo.localhost:3000")))?.subdomain).toBe("demo");
    expect((await schoolAt(host("acme-training.localhost")))?.subdomain).toBe("acme-training");
    expect((await schoolAt(host("learn.acme.test")))?.subdomain).toBe("acme-training");
    expect((await schoolAt(host("localhost:3000")))?.subdomain).toBe("demo");
    expect(await schoolAt(host("nope.localhost"))).toBeNull();
    expect(await schoolAt(host("unknown.example"))).toBeNull();
  });

  it("honours X-Forwarded-Host only with TRUST_PROXY", async () => {
    // Two requests with the same headers: the context is per request, built when first asked.
    const h = () => host("localhost:3000", { "x-forwarded-host": "acme-training.localhost" });
    expect((await schoolAt(h()))?.subdomain).toBe("demo");
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    clearSchoolCache();
    try {
      expect((await schoolAt(h()))?.subdomain).toBe("acme-training");
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
      clearSchoolCache();
    }
  });
});

describe("GET /api/health", () => {
  it("answers 200 when the database is reachable", async () => {
    const res = await server.fetch("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      database: "ok",
      // No Redis/KV configured: limits are per instance by design, which is not a degradation.
      rateLimits: { store: "memory", scope: "per_instance", reachable: true },
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("has a readiness form for load balancers: 200 ready (GET and HEAD)", async () => {
    const res = await server.fetch("/api/health/ready");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ready\n");
    const head = await server.fetch("/api/health/ready", { method: "HEAD" });
    expect(head.status).toBe(200);
  });

  it("refuses other methods with 405", async () => {
    const res = await server.fetch("/api/health", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
  });
});
