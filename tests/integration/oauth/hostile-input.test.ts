// Hostile input on the OAuth and Auth.js endpoints (issue 11, findings 4, 7, 9): NUL and non-UTF-8
// refused with each endpoint's 4xx before any query, no object-key lookups on user input, and
// bodies limited to 16 KiB while they stream.
import { describe, expect, it } from "vitest";
import { MAX_OAUTH_BODY_BYTES } from "@/lib/oauth/http";
import { appForSuite } from "../../helpers/app-for-suite";
import { partialPost } from "../../helpers/partial-post";
import { authorizeUrl, csrf, form } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });

const FORM = { "content-type": "application/x-www-form-urlencoded", host: "demo.localhost" };

async function oauthError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  expect((await res.json()).error).toBe(error);
}

describe("NUL and invalid UTF-8", () => {
  it.each(["/api/oauth/token", "/api/oauth/revoke", "/api/oauth/introspect"])("%s: NUL in client_id is invalid_request", async (path) => {
    const res = await app.fetch(path, { method: "POST", headers: FORM, body: "grant_type=authorization_code&client_id=a%00b&token=x&code=y" });
    await oauthError(res, 400, "invalid_request");
  });

  it("token: a body that is not UTF-8 is invalid_request", async () => {
    const body = Buffer.concat([Buffer.from("grant_type=authorization_code&client_id="), Buffer.from([0xff, 0xfe])]);
    await oauthError(await app.fetch("/api/oauth/token", { method: "POST", headers: FORM, body }), 400, "invalid_request");
  });

  it("register: NUL in client_name is invalid_client_metadata", async () => {
    const res = await app.fetch("/api/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Zap\u0000ier", redirect_uris: ["https://zapier.com/cb"] }),
    });
    await oauthError(res, 400, "invalid_client_metadata");
  });

  it("authorize GET: NUL in client_id or resource is an HTML 400, no redirect", async () => {
    for (const params of [{ client_id: "a\u0000b" }, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback", resource: "https://x\u0000y" }]) {
      const res = await app.fetch(authorizeUrl(params), { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
    }
  });

  it("Auth.js: NUL in the login email is a 400 page, not a query", async () => {
    const c = await csrf(app);
    const body = new URLSearchParams({ csrfToken: c.token, callbackUrl: "/", email: "stud\u0000ent@schoolhouse.test", password: "x" });
    const res = await app.fetch("/api/auth/callback/credentials", { method: "POST", headers: { ...FORM, cookie: c.cookie }, body, redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
  });
});

describe("Auth.js", () => {
  it.each(["%60I6PV", "%F4%8F%BF%B0", "javascript:alert(1)", "//evil.example"])("callbackUrl=%s never reaches Auth.js unparsed (was a 500)", async (value) => {
    for (const path of ["/api/auth/session", "/api/auth/csrf", "/api/auth/providers"]) {
      const res = await app.fetch(`${path}?callbackUrl=${value}`);
      expect(res.status, path).toBe(200);
    }
  });
});

describe("no object-key lookups on user input", () => {
  it.each(["constructor", "toString", "__proto__", "valueOf", "hasOwnProperty"])("grant_type=%s is unsupported_grant_type", async (grant) => {
    const res = await app.fetch("/api/oauth/token", form({ grant_type: grant, client_id: "demo-public-app" }));
    await oauthError(res, 400, "unsupported_grant_type");
  });

  it("scope=constructor is refused as an unknown scope", async () => {
    const res = await app.fetch(authorizeUrl({ client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback", scope: "openid constructor" }), {
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_scope");
    expect(location.searchParams.get("error_description")).toMatch(/constructor/);
  });
});

describe("bodies limited while streaming (16 KiB)", () => {
  it.each(["/api/oauth/token", "/api/oauth/revoke", "/api/oauth/introspect"])("%s answers 413 to a declared 20 MB body without reading it", async (path) => {
    const r = await partialPost(app.url, path, { ...FORM, "content-length": String(20 * 1024 * 1024) }, 100);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error).toBe("invalid_request");
  });

  it("register answers 413 once a streamed body passes the limit", async () => {
    const r = await partialPost(app.url, "/api/oauth/register", { "content-type": "application/json", host: "demo.localhost" }, MAX_OAUTH_BODY_BYTES + 1024);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error).toBe("invalid_request");
  });

  it("authorize POST and the Auth.js callback answer 413 pages", async () => {
    for (const path of ["/oauth/authorize", "/api/auth/callback/credentials"]) {
      const r = await partialPost(app.url, path, { ...FORM, "content-length": String(20 * 1024 * 1024) }, 100);
      expect(r.status, path).toBe(413);
      expect(r.body).toMatch(/<h1>Request too large<\/h1>/);
    }
  });
});
