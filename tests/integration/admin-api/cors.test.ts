import { describe, expect, it } from "vitest";
import { FULL_KEY, adminAppForSuite } from "./helpers";

const app = adminAppForSuite({ now: null });
const ORIGIN = "https://school-admin.example";

describe("CORS on /admin/graphql", () => {
  it("answers the preflight a browser sends before a keyed POST", async () => {
    const res = await app.fetch("/admin/graphql", {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-service-api-key, api-version, idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = res.headers.get("access-control-allow-headers")!.toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["content-type", "x-service-api-key", "api-version", "idempotency-key"]));
    expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  it("allows any origin and exposes the budget headers on answers, errors included", async () => {
    for (const key of [FULL_KEY, "sh_nosuchkey_0123456789abcdefghijkl"]) {
      const res = await app.fetch("/admin/graphql", {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json", "x-service-api-key": key },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      const exposed = res.headers.get("access-control-expose-headers")!;
      for (const h of ["RateLimit-Policy", "RateLimit", "RateLimit-Remaining", "Retry-After", "API-Version", "Idempotent-Replayed"]) expect(exposed).toContain(h);
    }
  });
});
