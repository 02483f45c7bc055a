import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../helpers/app-server";

// The benchmark's reference route must stay bare: a fixed small body, nothing else touched.
let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server.close());

// The bare route, and its handler behind proxy.ts (the reference of requests that meet the proxy).
describe.each(["/api/bench/baseline", "/api/bench/baseline-proxied"])("GET %s", (path) => {
  it("returns the same small body on any host, uncached", async () => {
    for (const host of ["localhost", "no-such-school.localhost", "unknown.example"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { host } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toBe("ok\n");
    }
  });

  it("only serves GET", async () => {
    const res = await fetch(`${server.url}${path}`, { method: "POST" });
    expect(res.status).toBe(405);
  });
});
