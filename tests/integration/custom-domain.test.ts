// A school on its own host name: `school domain add` makes the OAuth issuer, the storefront's links
// and the sign-in cookies follow the host the visitor used, beside <subdomain>.<PLATFORM_DOMAIN>.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { createSchool } from "@/lib/schools/create-school";
import { setCustomDomain } from "@/lib/schools/manage-schools";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { TEST_ACTOR } from "../helpers/audit-actor";

let server: AppServer;

beforeAll(async () => {
  await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "pottery", name: "Clay & Kiln", ownerEmail: "o@clay.example", now: new Date() });
  await db().course.create({ data: { schoolId: (await db().school.findUniqueOrThrow({ where: { subdomain: "pottery" } })).id, slug: "wheel", title: "Wheel" } });
  await setCustomDomain({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", host: "learn.clay.example", platformDomain: "localhost" });
  clearSchoolCache();
  server = await startAppServer();
});
afterAll(() => server.close());

describe("a school on a custom domain", () => {
  for (const host of ["learn.clay.example", "pottery.localhost"]) {
    it(`issuer and links follow the host used (${host})`, async () => {
      const disco = await (await server.fetch("/.well-known/oauth-authorization-server", { headers: { host } })).json();
      expect(disco.issuer).toBe(`http://${host}`);
      expect(disco.authorization_endpoint).toBe(`http://${host}/oauth/authorize`);
      const llms = await (await server.fetch("/llms.txt", { headers: { host } })).text();
      expect(llms).toContain("Clay & Kiln");
      expect(llms).toContain(`http://${host}/api/md/courses/wheel`);
      expect(llms).not.toContain(host === "learn.clay.example" ? "pottery.localhost" : "learn.clay.example");
    });
  }

  it("behind a trusted proxy the issuer is the https custom domain", async () => {
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    clearSchoolCache();
    try {
      const res = await server.fetch("/.well-known/oauth-authorization-server", {
        headers: { host: "internal:3000", "x-forwarded-host": "learn.clay.example", "x-forwarded-proto": "https" },
      });
      expect((await res.json()).issuer).toBe("https://learn.clay.example");
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
      clearSchoolCache();
    }
  });

  it("sign-in cookies are host-only, so each host keeps its own session", async () => {
    const res = await server.fetch("/api/auth/login?callbackUrl=%2F", { headers: { host: "learn.clay.example" } });
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) expect(c.toLowerCase()).not.toContain("domain=");
  });
});
