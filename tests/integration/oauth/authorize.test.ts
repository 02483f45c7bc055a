import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "@/lib/credentials/secret";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { AUTHORIZATION_CODE_TTL_SECONDS } from "@/lib/oauth/tokens";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { CHALLENGE, authorizeUrl, getCode, postConsent, signIn } from "./helpers";

let app: AppServer;
let bare: AppServer;
let student: string;
let bareMulti: string;
const CB = "http://localhost:3000/oauth/callback";
const base = { client_id: "demo-public-app", redirect_uri: CB };

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  app = await startAppServer({ host: "demo.localhost" });
  bare = await startAppServer({ host: "localhost" });
  student = await signIn(app, "student@schoolhouse.test");
  bareMulti = await signIn(bare, "multi@schoolhouse.test");
});
afterAll(async () => {
  await app.close();
  await bare.close();
});
afterEach(() => setNow(null));

const get = (server: AppServer, params: Record<string, string | undefined>, cookie = student) =>
  server.fetch(authorizeUrl(params), { headers: cookie ? { cookie } : {} });

describe("issue 12: OAuth conformance points at /oauth/authorize", () => {
  it("a request without scope gets the client's registered scope (RFC 6749 §3.3 default)", async () => {
    const { code } = await getCode(app, student, { ...base, scope: undefined });
    const row = await db().oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: hashSecret(code) } });
    const client = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: "demo-public-app" } });
    expect(row.scope).toBe(client.scope.split(" ").sort().join(" "));
  });

  it("the consent answer counts only for the account the page showed: another signed-in account restarts the flow", async () => {
    const ta = await signIn(app, "ta@schoolhouse.test");
    const first = await get(app, { ...base, scope: "openid profile" }, student);
    const consent = first.headers.get("location")!;
    expect(consent).toMatch(/^\/oauth\/consent\?/);
    // The page showed the student; meanwhile the teaching assistant signed in in another tab (same cookie jar).
    const res = await postConsent(app, ta, consent, "allow", DEMO_IDS.users.student);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/oauth\/authorize\?/);
    expect(await db().oAuthGrant.count({ where: { userId: DEMO_IDS.users.teachingAssistant } })).toBe(0);
    // Shown and signed in as the same account: the answer stands.
    const ok = await postConsent(app, ta, consent, "allow", DEMO_IDS.users.teachingAssistant);
    expect(new URL(ok.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });
});

describe("GET /oauth/authorize: errors that never redirect", () => {
  it.each([
    ["unknown client_id", { ...base, client_id: "nope" }, "Unknown application"],
    ["missing client_id", { ...base, client_id: undefined }, "Unknown application"],
    ["unregistered redirect_uri", { ...base, redirect_uri: "https://evil.example/cb" }, "Invalid redirect URI"],
    ["missing redirect_uri", { ...base, redirect_uri: undefined }, "Invalid redirect URI"],
    ["redirect_uri differing by a trailing slash", { ...base, redirect_uri: `${CB}/` }, "Invalid redirect URI"],
    ["non-loopback redirect_uri on another port", { client_id: "demo-confidential-app", redirect_uri: "https://reports.schoolhouse.test:8443/oauth/callback" }, "Invalid redirect URI"],
    ["localhost redirect with another path", { ...base, redirect_uri: "http://localhost:3000/other" }, "Invalid redirect URI"],
  ])("%s shows an error page", async (_name, params, title) => {
    const res = await get(app, params);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain(title);
  });

  it("duplicate client_id shows an error page", async () => {
    const res = await app.fetch(`${authorizeUrl(base)}&client_id=demo-confidential-app`, { headers: { cookie: student } });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("an unknown school host is a 404 page", async () => {
    const res = await app.fetch(authorizeUrl(base), { headers: { host: "no-such-school.localhost", cookie: student } });
    expect(res.status).toBe(404);
  });
});

describe("loopback redirect URIs (RFC 8252 §7.3)", () => {
  it.each(["http://127.0.0.1:51234/callback", "http://127.0.0.1/callback", "http://localhost:3999/oauth/callback"])(
    "%s matches on any port",
    async (redirect_uri) => {
      const res = await get(app, { ...base, redirect_uri });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toMatch(/^\/oauth\/consent\?/);
    },
  );

  it("https on a loopback host does not get the any-port rule", async () => {
    const res = await get(app, { ...base, redirect_uri: "https://127.0.0.1:444/callback" });
    expect(res.status).toBe(400);
  });
});

describe("GET /oauth/authorize: errors redirected to the client with error, error_description, state and iss", () => {
  it.each([
    ["response_type token", { response_type: "token" }, "unsupported_response_type"],
    ["missing response_type", { response_type: undefined }, "invalid_request"],
    ["missing code_challenge", { code_challenge: undefined }, "invalid_request"],
    ["missing code_challenge_method", { code_challenge_method: undefined }, "invalid_request"],
    ["code_challenge_method plain", { code_challenge_method: "plain" }, "invalid_request"],
    ["malformed code_challenge", { code_challenge: "short" }, "invalid_request"],
    ["unknown scope", { scope: "openid admin:everything" }, "invalid_scope"],
    ["empty scope", { scope: "" }, "invalid_scope"],
    ["malformed school_id", { school_id: "not-a-uuid" }, "invalid_request"],
    ["unknown school_id", { school_id: "5c400000-0000-4000-8000-00ff00000001" }, "invalid_request"],
    ["school_id of another school than the host's", { school_id: DEMO_IDS.acmeSchool }, "invalid_request"],
    ["resource with a fragment", { resource: "https://mcp.example/#x" }, "invalid_target"],
  ])("%s → %s", async (_name, params, error) => {
    const res = await get(app, { ...base, ...params });
    expect(res.status).toBe(303);
    const loc = new URL(res.headers.get("location")!);
    expect(loc.origin + loc.pathname).toBe(CB);
    expect(loc.searchParams.get("error")).toBe(error);
    expect(loc.searchParams.get("error_description")).toBeTruthy();
    expect(loc.searchParams.get("state")).toBe("st-123");
    expect(loc.searchParams.get("iss")).toBe("http://demo.localhost");
  });

  it("a client without the authorization_code grant → unauthorized_client", async () => {
    await db().oAuthClient.create({ data: { clientId: "refresh-only", name: "Refresh only", redirectUris: [CB], grantTypes: ["refresh_token"], scope: "openid" } });
    const res = await get(app, { ...base, client_id: "refresh-only" });
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("unauthorized_client");
  });

  it("also before login (no session needed to learn the request is bad)", async () => {
    const res = await get(app, { ...base, response_type: "token" }, "");
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("unsupported_response_type");
  });
});

describe("login, school picker and consent", () => {
  it("without a session goes to the login page with a relative callbackUrl back to authorize", async () => {
    const res = await get(app, base, "");
    expect(res.status).toBe(303);
    const loc = new URL(res.headers.get("location")!, "http://x");
    expect(loc.pathname).toBe("/login");
    const callback = loc.searchParams.get("callbackUrl")!;
    expect(callback.startsWith("/oauth/authorize?")).toBe(true);
    expect(new URLSearchParams(callback.split("?")[1]).get("client_id")).toBe("demo-public-app");
  });

  it("on the bare platform host without school_id shows the school picker listing the member's schools", async () => {
    const res = await get(bare, base, bareMulti);
    expect(res.headers.get("location")).toMatch(/^\/oauth\/select-school\?/);
  });

  it("a valid school_id skips the picker", async () => {
    const res = await get(bare, { ...base, school_id: DEMO_IDS.acmeSchool }, bareMulti);
    const loc = new URL(res.headers.get("location")!, "http://x");
    expect(loc.pathname).toBe("/oauth/consent");
    expect(loc.searchParams.get("school_id")).toBe(DEMO_IDS.acmeSchool);
  });

  it("a school host skips the picker and binds that school", async () => {
    const res = await get(app, base);
    const loc = new URL(res.headers.get("location")!, "http://x");
    expect(loc.pathname).toBe("/oauth/consent");
    expect(loc.searchParams.get("school_id")).toBe(DEMO_IDS.school);
  });

  it("a member of another school gets access_denied", async () => {
    const employee = await signIn(app, "employee@schoolhouse.test");
    const res = await get(app, base, employee);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("access_denied");
  });

  it("deny → access_denied with state and iss, and nothing remembered", async () => {
    const cookie = await signIn(app, "teacher@schoolhouse.test");
    const first = await get(app, base, cookie);
    const res = await postConsent(app, cookie, first.headers.get("location")!, "deny");
    const loc = new URL(res.headers.get("location")!);
    expect(loc.searchParams.get("error")).toBe("access_denied");
    expect(loc.searchParams.get("state")).toBe("st-123");
    expect(loc.searchParams.get("iss")).toBe("http://demo.localhost");
    expect(await db().oAuthConsent.count({ where: { userId: DEMO_IDS.users.teacher } })).toBe(0);
  });

  it("the consent POST needs the CSRF token", async () => {
    const first = await get(app, base);
    const params = new URL(first.headers.get("location")!, "http://x").searchParams;
    params.set("decision", "allow");
    params.set("csrf_token", "forged");
    const res = await app.fetch("/oauth/authorize", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: student },
      body: params,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
  });

  it("allow → a code bound to everything, then the consent is remembered per user, client, school and scope set", async () => {
    setNow(new Date("2026-04-01T12:00:00Z"));
    const cookie = await signIn(app, "ta@schoolhouse.test");
    const params = { ...base, scope: "openid email students:read", resource: "https://mcp.schoolhouse.test/mcp" };
    const { code, location } = await getCode(app, cookie, params);
    expect(location.searchParams.get("state")).toBe("st-123");
    expect(location.searchParams.get("iss")).toBe("http://demo.localhost");
    const row = await db().oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: hashSecret(code) }, include: { grant: true } });
    expect(row).toMatchObject({
      clientId: "demo-public-app",
      redirectUri: CB,
      codeChallenge: CHALLENGE,
      codeChallengeMethod: "S256",
      scope: "email openid students:read",
      resource: "https://mcp.schoolhouse.test/mcp",
    });
    expect(row.grant).toMatchObject({ userId: DEMO_IDS.users.teachingAssistant, schoolId: DEMO_IDS.school });
    expect((row.expiresAt.getTime() - row.createdAt.getTime()) / 1000).toBe(AUTHORIZATION_CODE_TTL_SECONDS);
    expect(AUTHORIZATION_CODE_TTL_SECONDS).toBeLessThanOrEqual(60);

    // Same scope set in another order: no consent page, straight back with a code.
    const again = await get(app, { ...params, scope: "students:read email openid" }, cookie);
    expect(new URL(again.headers.get("location")!).searchParams.get("code")).toBeTruthy();
    // A different scope set asks again.
    const more = await get(app, { ...params, scope: "openid email students:read profile" }, cookie);
    expect(more.headers.get("location")).toMatch(/^\/oauth\/consent\?/);
    // Another client asks again.
    const other = await get(app, { client_id: "schoolhouse-mcp", redirect_uri: "http://127.0.0.1:9999/callback", scope: params.scope }, cookie);
    expect(other.headers.get("location")).toMatch(/^\/oauth\/consent\?/);
  });

  it("grants the subset of requested scopes the client may have; offline_access is never refused", async () => {
    const cookie = await signIn(bare, "multi@schoolhouse.test");
    const client = await db().oAuthClient.create({
      data: { clientId: "limited-app", name: "Limited", redirectUris: [CB], scope: "openid profile" },
    });
    const res = await get(bare, { client_id: client.clientId, redirect_uri: CB, scope: "openid email offline_access", school_id: DEMO_IDS.school }, cookie);
    const { code } = await getCode(bare, cookie, { client_id: client.clientId, redirect_uri: CB, scope: "openid email offline_access", school_id: DEMO_IDS.school });
    expect(res.headers.get("location")).toMatch(/^\/oauth\/consent/);
    const row = await db().oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: hashSecret(code) } });
    expect(row.scope).toBe("offline_access openid");
  });
});
