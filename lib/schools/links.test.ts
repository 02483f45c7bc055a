import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { platformBaseUrl, schoolLinkOrigin } from "./links";

afterEach(() => {
  delete process.env.PLATFORM_DOMAIN;
  resetEnvCache();
});

describe("links printed outside a request", () => {
  it("on a loopback platform: http on the port the school is served on", () => {
    const base = platformBaseUrl({ PLATFORM_DOMAIN: "localhost", PORT: 3000 }, 4123);
    expect(base).toBe("http://localhost:4123");
    expect(schoolLinkOrigin({ subdomain: "ceramics", customDomain: null }, base)).toBe("http://ceramics.localhost:4123");
    expect(platformBaseUrl({ PLATFORM_DOMAIN: "dev.localhost", PORT: 3456 })).toBe("http://dev.localhost:3456");
  });

  it("elsewhere: https on the platform domain; a custom domain always https, without a port", () => {
    process.env.PLATFORM_DOMAIN = "schoolhouse.app";
    resetEnvCache();
    const base = platformBaseUrl({ PLATFORM_DOMAIN: "schoolhouse.app", PORT: 3000 });
    expect(base).toBe("https://schoolhouse.app");
    expect(schoolLinkOrigin({ subdomain: "demo", customDomain: null }, base)).toBe("https://demo.schoolhouse.app");
    expect(schoolLinkOrigin({ subdomain: "demo", customDomain: "Learn.Acme.Test" }, base)).toBe("https://learn.acme.test");
    expect(schoolLinkOrigin({ subdomain: "demo", customDomain: "learn.acme.test" }, "http://localhost:3000")).toBe("https://learn.acme.test");
  });
});
