// Issued client secrets (issue 12): created, rotated with an overlap and revoked by the operator's
// verbs (the ones `npm run oauth-client` runs), checked at the token endpoint over HTTP.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { hashSecret } from "@/lib/credentials/secret";
import { db } from "@/lib/db/client";
import { CLIENT_SECRET_OVERLAP_MS, matchClientSecret, verifyClientSecret } from "@/lib/oauth/client-secret";
import { createOAuthClient } from "@/lib/oauth/client-admin/create-client";
import { listOAuthClients } from "@/lib/oauth/client-admin/list-clients";
import { revokeOAuthClient } from "@/lib/oauth/client-admin/revoke-client";
import { rotateClientSecret } from "@/lib/oauth/client-admin/rotate-client-secret";
import { appForSuite } from "../../helpers/app-for-suite";
import { VERIFIER, authorizeUrl, form, getCode, signIn, type TokenBody } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;
const CB = "https://reports.example/callback";

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterEach(() => setNow(null));

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

async function newClient(confidential = true) {
  return createOAuthClient({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "demo", name: "Reports", redirectUris: [CB, "http://127.0.0.1/cb"], scope: "openid profile courses:read", confidential });
}

/** authorize → consent → code → token, authenticating with HTTP Basic (or the body with `post`). */
async function exchange(clientId: string, secret: string | null, how: "basic" | "post" = "basic"): Promise<Response> {
  const { code } = await getCode(app, cookie, { client_id: clientId, redirect_uri: CB, scope: "openid courses:read" });
  const fields = { grant_type: "authorization_code", code, redirect_uri: CB, code_verifier: VERIFIER };
  if (secret === null) return app.fetch("/api/oauth/token", form({ ...fields, client_id: clientId }));
  if (how === "post") return app.fetch("/api/oauth/token", form({ ...fields, client_id: clientId, client_secret: secret }));
  const init = form(fields);
  return app.fetch("/api/oauth/token", { ...init, headers: { ...(init.headers as Record<string, string>), authorization: basic(clientId, secret) } });
}

async function expectInvalidClient(res: Response) {
  expect(res.status).toBe(401);
  expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
}

describe("OAuth clients with issued secrets", () => {
  it("create: a random secret returned once, stored only as a salted hash; Basic and post both authenticate", async () => {
    const { client, secret } = await newClient();
    expect(client.clientId).toMatch(/^oc_[0-9a-f]{24}$/);
    expect(secret).toMatch(/^ocs_[A-Za-z0-9_-]{43}$/);
    const row = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: client.clientId } });
    expect(row.clientSecretHash).toMatch(/^s256\$/);
    expect(JSON.stringify(row)).not.toContain(secret!);
    expect(row.clientSecretHash).not.toContain(hashSecret(secret!));
    expect(JSON.stringify(await listOAuthClients({ db: db(), school: "demo" }))).not.toMatch(/ocs_|s256\$/);

    expect((await exchange(client.clientId, secret!)).status).toBe(200);
    expect((await exchange(client.clientId, secret!, "post")).status).toBe(200);
    await expectInvalidClient(await exchange(client.clientId, `${secret}x`));
    await expectInvalidClient(await exchange(client.clientId, null));
  });

  it("a public client from the CLI verbs uses PKCE alone and is refused a secret", async () => {
    const { client, secret } = await newClient(false);
    expect(secret).toBeNull();
    expect((await exchange(client.clientId, null)).status).toBe(200);
    await expectInvalidClient(await exchange(client.clientId, "anything", "post"));
  });

  it("rotation: the old secret works during the overlap, is refused after it; the new one works throughout", async () => {
    setNow(Date.parse("2026-11-23T08:00:00Z"));
    const { client, secret: oldSecret } = await newClient();
    const rotated = await rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() });
    expect(rotated.secret).not.toBe(oldSecret);
    expect(rotated.previousValidUntil?.getTime()).toBe(now().getTime() + CLIENT_SECRET_OVERLAP_MS);
    expect(CLIENT_SECRET_OVERLAP_MS).toBe(24 * 60 * 60 * 1000);

    expect((await exchange(client.clientId, oldSecret!)).status).toBe(200);
    expect((await exchange(client.clientId, rotated.secret)).status).toBe(200);
    advance(CLIENT_SECRET_OVERLAP_MS - 60_000);
    expect((await exchange(client.clientId, oldSecret!, "post")).status).toBe(200);
    advance(60_000);
    await expectInvalidClient(await exchange(client.clientId, oldSecret!));
    await expectInvalidClient(await exchange(client.clientId, oldSecret!, "post"));
    expect((await exchange(client.clientId, rotated.secret)).status).toBe(200);
  });

  it("a second rotation drops the first secret at once; --no-overlap drops the old one at once", async () => {
    const { client, secret: first } = await newClient();
    const second = await rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() });
    const third = await rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() });
    await expectInvalidClient(await exchange(client.clientId, first!));
    expect((await exchange(client.clientId, second.secret)).status).toBe(200);
    const fourth = await rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now(), overlap: false });
    expect(fourth.previousValidUntil).toBeNull();
    await expectInvalidClient(await exchange(client.clientId, third.secret));
    expect((await exchange(client.clientId, fourth.secret)).status).toBe(200);
  });

  it("two rotations at once never hand out a secret that does not work", async () => {
    const { client } = await newClient();
    const results = await Promise.allSettled([1, 2].map(() => rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() })));
    const issued = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.secret] : []));
    expect(issued.length).toBeGreaterThan(0);
    for (const r of results) if (r.status === "rejected") expect(String(r.reason)).toMatch(/changed meanwhile/);
    // One after the other they leave one current and one previous secret; a collision refuses one.
    const row = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: client.clientId } });
    const matches = issued.map((secret) => matchClientSecret(secret, row, now()));
    expect(matches).not.toContain(null);
    expect(matches.filter((m) => m === "current")).toHaveLength(1);
  });

  it("revoke disables the client and every grant and token it holds at once", async () => {
    const { client, secret } = await newClient();
    const res = await exchange(client.clientId, secret!);
    const tokens = (await res.json()) as TokenBody;
    const rotated = await rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() });

    const result = await revokeOAuthClient({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() });
    expect(result).toMatchObject({ alreadyRevoked: false, grants: 1, accessTokens: 1, refreshTokens: 1 });

    // Neither the current nor the overlapping previous secret authenticates any more.
    for (const s of [rotated.secret, secret!]) {
      const refreshed = await app.fetch("/api/oauth/token", {
        ...form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }),
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.clientId, s) },
      });
      await expectInvalidClient(refreshed);
    }
    // The access token it was issued is dead everywhere.
    expect((await app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { clientId: client.clientId } });
    expect(grant.revokedAt).not.toBeNull();
    expect(await db().oAuthConsent.count({ where: { clientId: client.clientId } })).toBe(0);
    // A new authorization request is an error page, never a redirect to the client.
    const again = await app.fetch(authorizeUrl({ client_id: client.clientId, redirect_uri: CB }), { headers: { cookie } });
    expect(again.status).toBe(400);
    expect(again.headers.get("location")).toBeNull();
    // Revoking twice is harmless; rotating a revoked client is refused.
    expect((await revokeOAuthClient({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() })).alreadyRevoked).toBe(true);
    await expect(rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() })).rejects.toThrow(/revoked/);
  });

  it("refuses bad input: redirect URIs by the CIMD rules, unknown scopes, a public client's rotation", async () => {
    for (const uri of ["http://evil.example/cb", "javascript:alert(1)", "https://app.example/cb#frag", "https://u:p@app.example/cb", "not a url"]) {
      await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "demo", name: "X", redirectUris: [uri], scope: "openid", confidential: true })).rejects.toThrow(/redirect URI/);
    }
    await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "demo", name: "X", redirectUris: [], scope: "openid", confidential: true })).rejects.toThrow(/redirect-uri/);
    await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "demo", name: "X", redirectUris: [CB], scope: "openid admin", confidential: true })).rejects.toThrow(/unknown scope admin/);
    await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "nowhere", name: "X", redirectUris: [CB], scope: "openid", confidential: true })).rejects.toThrow(/no school/);
    await expect(rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: "demo-public-app", now: now() })).rejects.toThrow(/public/);
    await expect(rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: "no-such-client", now: now() })).rejects.toThrow(/no OAuth client/);
  });

  it("the client is usable with its own school only", async () => {
    const { client } = await newClient();
    const other = await app.fetch(authorizeUrl({ client_id: client.clientId, redirect_uri: CB }), { headers: { cookie, host: "acme-training.localhost" } });
    const location = new URL(other.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("error_description")).toMatch(/not available at this school/);
    expect(location.searchParams.get("code")).toBeNull();
  });
});

describe("the 12b_client_secrets migration", () => {
  it("salts a stored unsalted SHA-256 so the same secret still authenticates", async () => {
    const dir = path.resolve(import.meta.dirname, "../../../prisma/migrations");
    const migration = readdirSync(dir).find((d) => d.endsWith("_12b_client_secrets"))!;
    const sql = readFileSync(path.join(dir, migration, "migration.sql"), "utf8");
    const update = sql.slice(sql.indexOf("UPDATE"));
    const legacySecret = "a-secret-stored-the-old-way";
    const { client } = await newClient();
    await db().oAuthClient.update({ where: { clientId: client.clientId }, data: { clientSecretHash: hashSecret(legacySecret) } });
    const untouched = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: "demo-confidential-app" } });
    await db().$executeRawUnsafe(update);
    const row = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: client.clientId } });
    expect(row.clientSecretHash).toMatch(/^s256\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(verifyClientSecret(legacySecret, row.clientSecretHash)).toBe(true);
    // Already salted rows are left as they are.
    expect((await db().oAuthClient.findUniqueOrThrow({ where: { clientId: "demo-confidential-app" } })).clientSecretHash).toBe(untouched.clientSecretHash);
    expect((await exchange(client.clientId, legacySecret)).status).toBe(200);
  });
});
