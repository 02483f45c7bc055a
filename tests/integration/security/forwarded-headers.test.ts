// Issue 12, attack 5: X-Forwarded-Proto/-Host were obeyed without TRUST_PROXY, so one request
// could make every generated link (and a shared cache's copy of it) point at https or elsewhere.
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { appForSuite } from "../../helpers/app-for-suite";

const app = appForSuite({ host: "demo.localhost:3000" });
afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetEnvCache();
  clearSchoolCache();
});

const spoof = { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" };

async function origins() {
  const openapi = (await (await app.fetch("/openapi.json", { headers: spoof })).json()) as { servers: { url: string }[] };
  const llms = await (await app.fetch("/llms.txt", { headers: spoof })).text();
  const markdown = await (await app.fetch("/api/md/courses/intro-to-sql", { headers: spoof })).text();
  const discovery = (await (await app.fetch("/.well-known/oauth-authorization-server", { headers: spoof })).json()) as { issuer: string };
  return { openapi: openapi.servers[0]!.url, llms, markdown, issuer: discovery.issuer };
}

describe("forwarded headers", () => {
  it("are ignored without TRUST_PROXY: every link keeps the scheme and host the server was addressed by", async () => {
    const o = await origins();
    expect(o.openapi).toMatch(/^http:\/\/demo\.localhost:3000/);
    expect(o.issuer).toBe("http://demo.localhost:3000");
    for (const text of [o.llms, o.markdown]) {
      expect(text).toContain("http://demo.localhost:3000/");
      expect(text).not.toMatch(/https:\/\/demo\.localhost|evil\.example/);
    }
  });

  it("are honoured behind a trusted proxy (TRUST_PROXY=1)", async () => {
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    clearSchoolCache();
    const res = await app.fetch("/.well-known/oauth-authorization-server", { headers: { "x-forwarded-proto": "https", "x-forwarded-host": "demo.localhost" } });
    expect(((await res.json()) as { issuer: string }).issuer).toBe("https://demo.localhost");
  });
});
