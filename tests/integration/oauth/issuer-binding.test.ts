// Issue 12: codes, access tokens and refresh tokens are bound to the origin (issuer) that issued
// them. Presented to another school's host, or to another origin of the same school (a custom
// domain), they are unknown there: invalid_grant at the token endpoint, 401 invalid_token at
// UserInfo and /mcp, {active:false} at introspection, and left alone by revocation.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { hashSecret } from "@/lib/credentials/secret";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { VERIFIER, exchangeCode, form, getCode, signIn, tokensFor, type TokenBody } from "./helpers";

let app: AppServer;
let cookie: string;
const CB = "http://localhost:3000/oauth/callback";
const HOME = "http://demo.localhost";
// The demo school's own custom domain: the same school, another origin.
const CUSTOM = "learn.demo-academy.test";
const ELSEWHERE = ["acme-training.localhost", CUSTOM];

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  await db().school.update({ where: { id: DEMO_IDS.school }, data: { customDomain: CUSTOM } });
  app = await startAppServer({ host: "demo.localhost" });
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterAll(() => app.close());
afterEach(() => setNow(null));

/** A form POST to `path` with the Host header of `host`. */
const postAt = (host: string, path: string, values: Record<string, string | undefined>) => {
  const init = form(values);
  return app.fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), host } });
};
const refreshAt = (host: string, refresh_token: string) => postAt(host, "/api/oauth/token", { grant_type: "refresh_token", refresh_token, client_id: "demo-public-app" });
const userinfoAt = (host: string, token: string) => app.fetch("/api/oauth/userinfo", { headers: { host, authorization: `Bearer ${token}` } });
const introspectAt = (host: string, token: string) => postAt(host, "/api/oauth/introspect", { token, client_id: "demo-public-app" });
const mcpAt = (host: string, token: string) =>
  app.fetch("/mcp", {
    method: "POST",
    headers: {
      host,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

async function expectInvalidGrant(res: Response) {
  expect(res.status).toBe(400);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(((await res.json()) as { error: string }).error).toBe("invalid_grant");
}

describe("authorization codes", () => {
  it("records the issuing origin on the grant", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB });
    const row = await db().oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: hashSecret(code) }, include: { grant: true } });
    expect(row.grant.issuer).toBe(HOME);
  });

  it.each(ELSEWHERE)("a code issued on demo.localhost is invalid_grant at %s, and still redeemable at home", async (host) => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: CB });
    const base = { grant_type: "authorization_code", code, redirect_uri: CB, client_id: "demo-public-app", code_verifier: VERIFIER };
    await expectInvalidGrant(await postAt(host, "/api/oauth/token", base));
    // Nothing was consumed or revoked on the foreign origin's say-so.
    const res = await exchangeCode(app, code);
    expect(res.status).toBe(200);
  });

  it("a code issued on the platform host is invalid_grant on a school host", async () => {
    const bare = await startAppServer({ host: "localhost" });
    try {
      const multi = await signIn(bare, "multi@schoolhouse.test");
      const { code } = await getCode(bare, multi, { client_id: "demo-public-app", redirect_uri: CB, school_id: DEMO_IDS.school });
      await expectInvalidGrant(await postAt("demo.localhost", "/api/oauth/token", { grant_type: "authorization_code", code, redirect_uri: CB, client_id: "demo-public-app", code_verifier: VERIFIER }));
      expect((await exchangeCode(bare, code)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe("refresh tokens", () => {
  it.each(ELSEWHERE)("a refresh token from demo.localhost is invalid_grant at %s; the grant lives on at home", async (host) => {
    const t = await tokensFor(app, cookie);
    await expectInvalidGrant(await refreshAt(host, t.refresh_token));
    // Not rotated, and no replay alarm revoked the grant from the foreign origin.
    expect((await userinfoAt("demo.localhost", t.access_token)).status).toBe(200);
    const res = await refreshAt("demo.localhost", t.refresh_token);
    expect(res.status).toBe(200);
  });
});

describe("access tokens", () => {
  it.each(ELSEWHERE)("UserInfo at %s answers 401 invalid_token (RFC 6750)", async (host) => {
    const t = await tokensFor(app, cookie);
    const res = await userinfoAt(host, t.access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="schoolhouse", error="invalid_token"/);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_token");
    expect((await userinfoAt("demo.localhost", t.access_token)).status).toBe(200);
  });

  it("/mcp on another origin of the same school answers 401 invalid_token, even for a token naming that resource", async () => {
    // The audience is the custom domain's /mcp and the school is right: only the issuer differs.
    const scope = "openid courses:read";
    const foreign = await tokensFor(app, cookie, { scope, resource: `http://${CUSTOM}/mcp` });
    const res = await mcpAt(CUSTOM, foreign.access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    // The same kind of token issued at demo.localhost for its own /mcp works there, and not at acme.
    const own = await tokensFor(app, cookie, { scope, resource: `${HOME}/mcp` });
    expect((await mcpAt("demo.localhost", own.access_token)).status).toBe(200);
    expect((await mcpAt("acme-training.localhost", own.access_token)).status).toBe(401);
  });

  it.each(ELSEWHERE)("revocation at %s leaves the token alone (200, RFC 7009)", async (host) => {
    const t = await tokensFor(app, cookie);
    const access = await postAt(host, "/api/oauth/revoke", { token: t.access_token, client_id: "demo-public-app" });
    const refresh = await postAt(host, "/api/oauth/revoke", { token: t.refresh_token, client_id: "demo-public-app" });
    expect([access.status, refresh.status]).toEqual([200, 200]);
    expect((await userinfoAt("demo.localhost", t.access_token)).status).toBe(200);
    expect((await refreshAt("demo.localhost", t.refresh_token)).status).toBe(200);
  });
});

describe("introspection (RFC 7662)", () => {
  it("reports the token's own iss and aud", async () => {
    setNow(new Date("2026-06-01T00:00:00Z"));
    const plain = await tokensFor(app, cookie, { scope: "openid" });
    expect(await (await introspectAt("demo.localhost", plain.access_token)).json()).toMatchObject({ active: true, iss: HOME, aud: HOME });
    const withResource = await tokensFor(app, cookie, { scope: "openid", resource: "https://reports.example/api" });
    expect(await (await introspectAt("demo.localhost", withResource.access_token)).json()).toMatchObject({
      active: true,
      iss: HOME,
      aud: "https://reports.example/api",
    });
  });

  it.each(ELSEWHERE)("at %s an active token of demo.localhost is only {active:false}", async (host) => {
    const t = await tokensFor(app, cookie);
    expect(await (await introspectAt(host, t.access_token)).json()).toEqual({ active: false });
  });
});

describe("grants from before the issuer was recorded", () => {
  it("are refused everywhere (the migration's backfill is '')", async () => {
    const t: TokenBody = await tokensFor(app, cookie);
    const row = await db().oAuthAccessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(t.access_token) } });
    await db().oAuthGrant.update({ where: { id: row.grantId }, data: { issuer: "" } });
    expect((await userinfoAt("demo.localhost", t.access_token)).status).toBe(401);
    expect(await (await introspectAt("demo.localhost", t.access_token)).json()).toEqual({ active: false });
    await expectInvalidGrant(await refreshAt("demo.localhost", t.refresh_token));
  });
});
