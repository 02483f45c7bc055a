import { describe, expect, it } from "vitest";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn, tokensFor } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });


const userinfo = (token: string, init: RequestInit = {}) =>
  app.fetch("/api/oauth/userinfo", { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });

describe("UserInfo claims", () => {
  it("openid profile email: every claim, picture from the avatar", async () => {
    const t = await tokensFor(app, await signIn(app, "student@schoolhouse.test"), { scope: "openid profile email" });
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({
      sub: DEMO_IDS.users.student,
      name: "Jamie Lee",
      picture: "https://avatars.schoolhouse.test/jamie-lee.png",
      email: "student@schoolhouse.test",
      email_verified: true,
      org_id: DEMO_IDS.school,
      roles: ["student"],
    });
  });

  it("picture is omitted without an avatar", async () => {
    const t = await tokensFor(app, await signIn(app, "owner@schoolhouse.test"), { scope: "openid profile" });
    const body = (await (await userinfo(t.access_token)).json()) as Record<string, unknown>;
    expect(body).toEqual({ sub: DEMO_IDS.users.owner, name: "Olivia Park", org_id: DEMO_IDS.school, roles: ["owner"] });
    expect("picture" in body).toBe(false);
  });

  it("openid alone: sub, org_id and roles only; roles built-ins by privilege, then custom roles A–Z", async () => {
    const t = await tokensFor(app, await signIn(app, "multi@schoolhouse.test"), { scope: "openid" });
    expect(await (await userinfo(t.access_token)).json()).toEqual({
      sub: DEMO_IDS.users.multiRole,
      org_id: DEMO_IDS.school,
      roles: ["teacher", "student", "alumni", "content_reviewer"],
    });
  });

  it("email scope without profile", async () => {
    const t = await tokensFor(app, await signIn(app, "reviewer@schoolhouse.test"), { scope: "openid email" });
    expect(await (await userinfo(t.access_token)).json()).toEqual({
      sub: DEMO_IDS.users.reviewer,
      email: "reviewer@schoolhouse.test",
      email_verified: true,
      org_id: DEMO_IDS.school,
      roles: ["content_reviewer"],
    });
  });

  it("POST works like GET", async () => {
    const t = await tokensFor(app, await signIn(app, "student@schoolhouse.test"), { scope: "openid" });
    const res = await userinfo(t.access_token, { method: "POST" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sub: string }).sub).toBe(DEMO_IDS.users.student);
  });
});

describe("UserInfo errors", () => {
  it("no token → 401 invalid_token with a bare Bearer challenge", async () => {
    const res = await app.fetch("/api/oauth/userinfo");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="schoolhouse"');
    expect(((await res.json()) as { error: string }).error).toBe("invalid_token");
  });

  it.each(["sha_unknown", "garbage"])("an unknown token (%s) → 401 invalid_token", async (token) => {
    const res = await userinfo(token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="schoolhouse", error="invalid_token"/);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_token");
  });

  it("a revoked token → 401 invalid_token", async () => {
    const t = await tokensFor(app, await signIn(app, "student@schoolhouse.test"), { scope: "openid" });
    await app.fetch("/api/oauth/revoke", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: t.access_token, client_id: "demo-public-app" }),
    });
    expect((await userinfo(t.access_token)).status).toBe(401);
  });

  it("a token without openid → 403 invalid_scope with an insufficient_scope challenge", async () => {
    const t = await tokensFor(app, await signIn(app, "student@schoolhouse.test"), { scope: "profile email" });
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="schoolhouse", error="insufficient_scope".*scope="openid"$/);
    expect(res.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/i);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_scope");
    expect(body.error_description).toBeTruthy();
  });

  it("a malformed Authorization header → 400 invalid_request", async () => {
    const res = await app.fetch("/api/oauth/userinfo", { headers: { authorization: "Token abc" } });
    expect(res.status).toBe(400);
    expect(res.headers.get("www-authenticate")).toMatch(/error="invalid_request"/);
  });

  it("a member session cookie is not an access token", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    expect((await app.fetch("/api/oauth/userinfo", { headers: { cookie } })).status).toBe(401);
  });
});
