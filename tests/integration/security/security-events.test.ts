// Security events are structured log lines (one JSON object per line) a log pipeline can alert on.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { REFRESH_REPLAY_GRACE_SECONDS } from "@/lib/oauth/grants/refresh-token";
import { advance, setNow } from "@/lib/clock";
import { appForSuite } from "../../helpers/app-for-suite";
import { exchangeCode, form, getCode, signIn, tokensFor } from "../oauth/helpers";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;
beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterEach(() => {
  setNow(null);
  vi.restoreAllMocks();
});

function captureEvents() {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  return () => warn.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>).filter((e) => e.type === "security");
}

describe("security events", () => {
  it("an authorization code replay", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback" });
    expect((await exchangeCode(app, code)).status).toBe(200);
    const events = captureEvents();
    expect((await exchangeCode(app, code)).status).toBe(400);
    expect(events()).toEqual([expect.objectContaining({ event: "oauth.code_replay", client_id: "demo-public-app", grant_id: expect.any(String) })]);
  });

  it("a refresh token reuse", async () => {
    const t = await tokensFor(app, cookie);
    const refresh = () => app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: "demo-public-app" }));
    expect((await refresh()).status).toBe(200);
    setNow(Date.now());
    advance((REFRESH_REPLAY_GRACE_SECONDS + 1) * 1000);
    const events = captureEvents();
    expect((await refresh()).status).toBe(400);
    expect(events()).toEqual([expect.objectContaining({ event: "oauth.refresh_token_reuse", grant_revoked: true })]);
  });

  it("a failed client authentication, without the presented secret", async () => {
    const events = captureEvents();
    const res = await app.fetch("/api/oauth/introspect", form({ token: "x", client_id: "demo-confidential-app", client_secret: "guessed-secret" }));
    expect(res.status).toBe(401);
    expect(events()).toEqual([expect.objectContaining({ event: "oauth.client_auth_failed", client_id: "demo-confidential-app", reason: "wrong_secret" })]);
    expect(JSON.stringify(events())).not.toContain("guessed-secret");
  });

  it("codes and tokens presented to another origin (issue 12), without the token", async () => {
    const t = await tokensFor(app, cookie);
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback" });
    const events = captureEvents();
    const acme = { host: "acme-training.localhost" };
    expect((await exchangeCode(app, code, {}, acme)).status).toBe(400);
    const refresh = form({ grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: "demo-public-app" });
    expect((await app.fetch("/api/oauth/token", { ...refresh, headers: { ...(refresh.headers as Record<string, string>), ...acme } })).status).toBe(400);
    expect((await app.fetch("/api/oauth/userinfo", { headers: { ...acme, authorization: `Bearer ${t.access_token}` } })).status).toBe(401);
    expect(events()).toEqual([
      expect.objectContaining({ event: "oauth.issuer_mismatch", kind: "authorization_code", client_id: "demo-public-app", grant_id: expect.any(String) }),
      expect.objectContaining({ event: "oauth.issuer_mismatch", kind: "refresh_token" }),
      expect.objectContaining({ event: "oauth.issuer_mismatch", kind: "access_token" }),
    ]);
    const logged = JSON.stringify(events());
    for (const secret of [code, t.refresh_token, t.access_token]) expect(logged).not.toContain(secret);
  });
});
