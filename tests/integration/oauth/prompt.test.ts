// Issue 12: `prompt` at /oauth/authorize (OpenID Connect Core §3.1.2.1 and §3.1.2.6).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { LOGIN_TICKET_TTL_SECONDS } from "@/lib/oauth/login-ticket";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { authorizeUrl, getCode, postConsent, signIn } from "./helpers";

let app: AppServer;
let bare: AppServer;
let student: string;
const CB = "http://localhost:3000/oauth/callback";
const base = { client_id: "demo-public-app", redirect_uri: CB, state: "st-prompt" };

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  app = await startAppServer({ host: "demo.localhost" });
  bare = await startAppServer({ host: "localhost" });
  student = await signIn(app, "student@schoolhouse.test");
});
afterAll(async () => {
  await app.close();
  await bare.close();
});
afterEach(() => setNow(null));

const get = (params: Record<string, string | undefined>, cookie: string | null = student, server = app) =>
  server.fetch(authorizeUrl(params), { headers: cookie ? { cookie } : {} });
const location = (res: Response) => {
  expect(res.status).toBe(303);
  return res.headers.get("location")!;
};

/** The error redirect's parameters (RFC 6749 §4.1.2.1 with RFC 9207 iss). */
function errorOf(res: Response, issuer = "http://demo.localhost") {
  const url = new URL(location(res));
  expect(`${url.origin}${url.pathname}`).toBe(CB);
  expect(url.searchParams.get("state")).toBe("st-prompt");
  expect(url.searchParams.get("iss")).toBe(issuer);
  expect(url.searchParams.get("code")).toBeNull();
  return url.searchParams.get("error");
}

/** The callback the login page was given, as a path and query to request with another cookie. */
function loginCallback(res: Response): string {
  const loc = location(res);
  expect(loc).toMatch(/^\/login\?callbackUrl=/);
  return new URL(loc, "http://x").searchParams.get("callbackUrl")!;
}

describe("prompt values", () => {
  it.each([
    ["an unknown value", "bogus"],
    ["none with another value", "none login"],
    ["select_account (no account chooser)", "select_account"],
  ])("%s is invalid_request", async (_name, prompt) => {
    expect(errorOf(await get({ ...base, prompt }))).toBe("invalid_request");
  });

  it("a repeated prompt parameter is invalid_request", async () => {
    const url = `${authorizeUrl({ ...base, prompt: "login" })}&prompt=consent`;
    expect(errorOf(await app.fetch(url, { headers: { cookie: student } }))).toBe("invalid_request");
  });

  it("discovery advertises exactly the values honoured", async () => {
    const res = await app.fetch("/.well-known/oauth-authorization-server");
    expect(((await res.json()) as { prompt_values_supported: string[] }).prompt_values_supported).toEqual(["none", "login", "consent"]);
  });
});

describe("prompt=none: never a page", () => {
  it("without a session → login_required", async () => {
    expect(errorOf(await get({ ...base, prompt: "none" }, null))).toBe("login_required");
  });

  it("consent not yet given → consent_required, and nothing is granted", async () => {
    const ta = await signIn(app, "ta@schoolhouse.test");
    expect(errorOf(await get({ ...base, scope: "openid email", prompt: "none" }, ta))).toBe("consent_required");
    expect(await db().oAuthGrant.count({ where: { userId: DEMO_IDS.users.teachingAssistant } })).toBe(0);
  });

  it("the school still to be chosen (platform host) → interaction_required", async () => {
    const multi = await signIn(bare, "multi@schoolhouse.test");
    expect(errorOf(await get({ ...base, prompt: "none" }, multi, bare), "http://localhost")).toBe("interaction_required");
  });

  it("signed in with remembered consent → the code, without a page", async () => {
    await getCode(app, student, { ...base, scope: "openid profile" });
    const url = new URL(location(await get({ ...base, scope: "openid profile", prompt: "none" })));
    expect(url.searchParams.get("code")).toMatch(/^shc_/);
    expect(url.searchParams.get("state")).toBe("st-prompt");
  });
});

describe("prompt=consent", () => {
  it("shows the consent page even when this consent is remembered", async () => {
    await getCode(app, student, { ...base, scope: "openid email" });
    expect(new URL(location(await get({ ...base, scope: "openid email" }))).searchParams.get("code")).toBeTruthy();
    const again = location(await get({ ...base, scope: "openid email", prompt: "consent" }));
    expect(again).toMatch(/^\/oauth\/consent\?/);
    // Allowing on that page gives the code (the MCP SDK's prompt=consent flow).
    const answered = await postConsent(app, student, again, "allow");
    expect(new URL(location(answered)).searchParams.get("code")).toMatch(/^shc_/);
  });
});

describe("prompt=login: a new sign-in, then the flow goes on", () => {
  it("a signed-in member is sent to the login page; only a session created after that continues", async () => {
    await getCode(app, student, { ...base, scope: "openid" });
    const callback = loginCallback(await get({ ...base, scope: "openid", prompt: "login" }));
    const params = new URL(callback, "http://x").searchParams;
    expect(params.get("prompt")).toBeNull();
    expect(params.get("login_ticket")).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    // The old session cannot skip the sign-in by following the callback itself.
    loginCallback(await app.fetch(callback, { headers: { cookie: student } }));
    // After signing in again, the same callback goes on (consent is remembered: straight to the code).
    const fresh = await signIn(app, "student@schoolhouse.test");
    expect(new URL(location(await app.fetch(callback, { headers: { cookie: fresh } }))).searchParams.get("code")).toMatch(/^shc_/);
  });

  it("without a session: the login page, and after it the flow goes on without asking again", async () => {
    const callback = loginCallback(await get({ ...base, scope: "openid", prompt: "login" }, null));
    const fresh = await signIn(app, "student@schoolhouse.test");
    expect(new URL(location(await app.fetch(callback, { headers: { cookie: fresh } }))).searchParams.get("code")).toBeTruthy();
  });

  it("prompt=login consent: after the new sign-in, the consent page even though consent is remembered", async () => {
    await getCode(app, student, { ...base, scope: "openid" });
    const callback = loginCallback(await get({ ...base, scope: "openid", prompt: "login consent" }));
    expect(new URL(callback, "http://x").searchParams.get("prompt")).toBe("consent");
    const fresh = await signIn(app, "student@schoolhouse.test");
    const consent = location(await app.fetch(callback, { headers: { cookie: fresh } }));
    expect(consent).toMatch(/^\/oauth\/consent\?/);
    expect(new URL(location(await postConsent(app, fresh, consent, "allow"))).searchParams.get("code")).toBeTruthy();
  });

  it("a forged or expired ticket sends the member to sign in again", async () => {
    const callback = loginCallback(await get({ ...base, scope: "openid", prompt: "login" }));
    const fresh = await signIn(app, "student@schoolhouse.test");
    const params = new URL(callback, "http://x").searchParams;
    const ticket = params.get("login_ticket")!;
    // A ticket moved back in time (so an older session would pass) fails its MAC.
    params.set("login_ticket", `${Number(ticket.split(".")[0]) - 3_600_000}.${ticket.split(".")[1]}`);
    loginCallback(await app.fetch(`/oauth/authorize?${params}`, { headers: { cookie: fresh } }));
    setNow(new Date(Date.now() + (LOGIN_TICKET_TTL_SECONDS + 60) * 1000));
    loginCallback(await app.fetch(callback, { headers: { cookie: fresh } }));
  });

  it("a consent form answered without the new sign-in does not grant", async () => {
    const ta = await signIn(app, "ta@schoolhouse.test");
    const callback = loginCallback(await get({ ...base, scope: "openid profile email", prompt: "login" }, ta));
    // The consent URL the flow would reach after signing in, posted with the old session.
    const consent = `/oauth/consent?${new URL(callback, "http://x").searchParams}&school_id=${DEMO_IDS.school}`;
    const res = await postConsent(app, ta, consent, "allow");
    expect(location(res)).toMatch(/^\/login\?callbackUrl=/);
    expect(await db().oAuthGrant.count({ where: { userId: DEMO_IDS.users.teachingAssistant, scope: "email openid profile" } })).toBe(0);
  });
});
