import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, setNow } from "@/lib/clock";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { VERIFIER, form, getCode, signIn, tokensFor, type TokenBody } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;
const CONF_CB = "https://reports.schoolhouse.test/oauth/callback";
const SECRET = "demo-confidential-secret-dev-only";

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterEach(() => setNow(null));

const revoke = (values: Record<string, string | undefined>) => app.fetch("/api/oauth/revoke", form({ client_id: "demo-public-app", ...values }));
const introspect = (values: Record<string, string | undefined>) => app.fetch("/api/oauth/introspect", form({ client_id: "demo-public-app", ...values }));
const userinfo = (t: string) => app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${t}` } });
const refresh = (t: string) => app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: t, client_id: "demo-public-app" }));

async function confidentialTokens(): Promise<TokenBody> {
  const { code } = await getCode(app, cookie, { client_id: "demo-confidential-app", redirect_uri: CONF_CB });
  const res = await app.fetch(
    "/api/oauth/token",
    form({ grant_type: "authorization_code", code, redirect_uri: CONF_CB, client_id: "demo-confidential-app", client_secret: SECRET, code_verifier: VERIFIER }),
  );
  return (await res.json()) as TokenBody;
}

describe("revocation (RFC 7009)", () => {
  it("revoking an access token ends only that token", async () => {
    const t = await tokensFor(app, cookie);
    const res = await revoke({ token: t.access_token, token_type_hint: "access_token" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await refresh(t.refresh_token)).status).toBe(200);
  });

  it("revoking a refresh token ends its grant's access tokens", async () => {
    const t = await tokensFor(app, cookie);
    const rotated = (await (await refresh(t.refresh_token)).json()) as TokenBody;
    expect((await revoke({ token: rotated.refresh_token, token_type_hint: "refresh_token" })).status).toBe(200);
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await userinfo(rotated.access_token)).status).toBe(401);
    expect((await refresh(rotated.refresh_token)).status).toBe(400);
  });

  it("a wrong or unknown token_type_hint still finds the token", async () => {
    const a = await tokensFor(app, cookie);
    await revoke({ token: a.refresh_token, token_type_hint: "access_token" });
    expect((await userinfo(a.access_token)).status).toBe(401);
    const b = await tokensFor(app, cookie);
    await revoke({ token: b.access_token, token_type_hint: "id_token" });
    expect((await userinfo(b.access_token)).status).toBe(401);
  });

  it("is 200 for an invalid, unknown or already revoked token", async () => {
    const t = await tokensFor(app, cookie);
    expect((await revoke({ token: t.access_token })).status).toBe(200);
    expect((await revoke({ token: t.access_token })).status).toBe(200);
    expect((await revoke({ token: "nonsense" })).status).toBe(200);
    expect(await (await revoke({ token: "nonsense" })).json()).toEqual({});
  });

  it("a token of another client is left alone (and the answer is still 200)", async () => {
    const t = await tokensFor(app, cookie);
    const res = await app.fetch("/api/oauth/revoke", form({ token: t.access_token, client_id: "demo-confidential-app", client_secret: SECRET }));
    expect(res.status).toBe(200);
    expect((await userinfo(t.access_token)).status).toBe(200);
    expect((await app.fetch("/api/oauth/revoke", form({ token: t.refresh_token, client_id: "schoolhouse-mcp" }))).status).toBe(200);
    expect((await refresh(t.refresh_token)).status).toBe(200);
  });

  it("client authentication failures and a missing token are errors, not 200", async () => {
    const t = await confidentialTokens();
    const res = await app.fetch("/api/oauth/revoke", form({ token: t.access_token, client_id: "demo-confidential-app", client_secret: "wrong" }));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
    expect((await userinfo(t.access_token)).status).toBe(200);
    expect((await revoke({ token: undefined })).status).toBe(400);
    expect((await revoke({ token: "x", client_id: undefined })).status).toBe(400);
  });
});

describe("introspection (RFC 7662)", () => {
  it("an active token: scope, client_id, token_type, exp, iat, sub, aud, iss", async () => {
    setNow(new Date("2026-06-01T00:00:00Z"));
    const t = await tokensFor(app, cookie, { scope: "openid courses:read", resource: "https://mcp.schoolhouse.test/mcp" });
    const res = await introspect({ token: t.access_token });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const iat = Date.parse("2026-06-01T00:00:00Z") / 1000;
    expect(await res.json()).toEqual({
      active: true,
      scope: "courses:read openid",
      client_id: "demo-public-app",
      token_type: "Bearer",
      exp: iat + 7200,
      iat,
      sub: DEMO_IDS.users.student,
      aud: "https://mcp.schoolhouse.test/mcp",
      iss: "http://demo.localhost",
      school_id: DEMO_IDS.school,
    });
  });

  it("expired, revoked, unknown, refresh and other clients' tokens are only {active:false}", async () => {
    setNow(new Date("2026-06-02T00:00:00Z"));
    const t = await tokensFor(app, cookie);
    const other = await confidentialTokens();
    for (const token of ["nonsense", t.refresh_token, other.access_token]) {
      expect(await (await introspect({ token })).json()).toEqual({ active: false });
    }
    advance(7200 * 1000);
    expect(await (await introspect({ token: t.access_token })).json()).toEqual({ active: false });
    setNow(new Date("2026-06-02T00:00:00Z"));
    await revoke({ token: t.access_token });
    expect(await (await introspect({ token: t.access_token })).json()).toEqual({ active: false });
  });

  it("a confidential client must authenticate", async () => {
    const t = await confidentialTokens();
    const bad = await app.fetch("/api/oauth/introspect", form({ token: t.access_token, client_id: "demo-confidential-app" }));
    expect(bad.status).toBe(401);
    const ok = await app.fetch("/api/oauth/introspect", form({ token: t.access_token, client_id: "demo-confidential-app", client_secret: SECRET }));
    expect(((await ok.json()) as { active: boolean }).active).toBe(true);
  });

  it("missing token or client_id → 400 invalid_request", async () => {
    expect((await introspect({ token: undefined })).status).toBe(400);
    expect((await introspect({ token: "x", client_id: undefined })).status).toBe(400);
  });
});
