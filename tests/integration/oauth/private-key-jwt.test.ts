import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { resetEnvCache } from "@/lib/env";
import { createOAuthClient } from "@/lib/oauth/client-admin/create-client";
import { OAuthClientCommandError } from "@/lib/oauth/client-admin/errors";
import { clearClientJwksCache } from "@/lib/oauth/client-jwks";
import { appForSuite } from "../../helpers/app-for-suite";
import { form, getCode, signIn, VERIFIER } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// Issue 25, item 5: private_key_jwt client authentication (OIDC Core §9, RFC 7523).
const TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const CB = "http://127.0.0.1/callback";
let jwksServer: Server;
let served: { keys: JWK[] } = { keys: [] };
let jwksHits = 0;

const app = appForSuite({
  host: "demo.localhost",
  prepare: async () => {
    process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS = "1";
    resetEnvCache();
  },
});

interface Signer { kid: string; privateKey: CryptoKey; publicJwk: JWK }
async function signer(kid: string, alg: "RS256" | "ES256" = "RS256"): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

let inline: Signer;
let remote: Signer;
let inlineClient: string;
let remoteClient: string;
let issuer: string;

beforeAll(async () => {
  jwksServer = createServer((_req, res) => {
    jwksHits++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(served));
  });
  await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
  inline = await signer("inline-1");
  remote = await signer("remote-1", "ES256");
  served = { keys: [remote.publicJwk] };
  inlineClient = (await createOAuthClient({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "demo", name: "Key Client", redirectUris: [CB], scope: "openid profile offline_access", confidential: true, jwks: { keys: [inline.publicJwk] } })).client.clientId;
  remoteClient = (
    await createOAuthClient({ actor: TEST_ACTOR, now: new Date(),
      db: db(), school: "demo", name: "Remote Key Client", redirectUris: [CB], scope: "openid profile", confidential: true,
      jwksUri: `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`,
    })
  ).client.clientId;
  issuer = `http://demo.localhost`;
});
afterAll(async () => {
  delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS;
  resetEnvCache();
  jwksServer.closeAllConnections();
  await new Promise((r) => jwksServer.close(r));
});
afterEach(() => setNow(null));

async function assertion(s: Signer, clientId: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  const at = Math.floor(now().getTime() / 1000);
  return new SignJWT({ jti: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: s.publicJwk.alg!, kid: s.kid, ...header })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience((claims.aud as string) ?? `${issuer}/api/oauth/token`)
    .setIssuedAt(at)
    .setExpirationTime((claims.exp as number) ?? at + 60)
    .sign(s.privateKey);
}

/** Client authentication alone: revocation answers 200 exactly when the client authenticated. */
const revokeWith = (fields: Record<string, string | undefined>) => app.fetch("/api/oauth/revoke", form({ token: "not-a-token", ...fields }));
async function expectRefused(res: Response, message: RegExp) {
  expect(res.status).toBe(401);
  const body = (await res.json()) as { error: string; error_description: string };
  expect(body.error).toBe("invalid_client");
  expect(body.error_description).toMatch(message);
}

describe("private_key_jwt", () => {
  it("is advertised for the token, revocation and introspection endpoints, with the algorithms", async () => {
    const body = (await (await app.fetch("/.well-known/oauth-authorization-server")).json()) as Record<string, string[]>;
    for (const e of ["token", "revocation", "introspection"]) {
      expect(body[`${e}_endpoint_auth_methods_supported`]).toEqual(["none", "client_secret_basic", "client_secret_post", "private_key_jwt"]);
      expect(body[`${e}_endpoint_auth_signing_alg_values_supported`]).toEqual(["RS256", "PS256", "ES256", "EdDSA"]);
    }
  });

  it("a real client (oauth4webapi PrivateKeyJwt) exchanges a code and refreshes, aud = issuer", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    const { location } = await getCode(app, cookie, { client_id: inlineClient, redirect_uri: CB, scope: "profile offline_access" });
    const as: oauth.AuthorizationServer = { issuer, token_endpoint: `${app.url}/api/oauth/token`, authorization_response_iss_parameter_supported: true };
    const client: oauth.Client = { client_id: inlineClient };
    const auth = oauth.PrivateKeyJwt({ key: inline.privateKey, kid: inline.kid });
    const params = oauth.validateAuthResponse(as, client, location, "st-123");
    // Through the suite's server with the school's Host, as a browser-facing deployment would be reached.
    const opts = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: (url: string, init: RequestInit) => app.fetch(new URL(url).pathname, init) };
    const res = await oauth.authorizationCodeGrantRequest(as, client, auth, params, CB, VERIFIER, opts);
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { access_token: string; refresh_token: string };
    expect(tokens.access_token).toMatch(/^sha_/);
    const refreshed = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token, opts);
    expect(refreshed.status).toBe(200);
  });

  it("authenticates with a key served at jwks_uri (fetched through the safe fetch, then cached)", async () => {
    const before = jwksHits;
    expect((await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(remote, remoteClient) })).status).toBe(200);
    expect((await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(remote, remoteClient), client_id: remoteClient })).status).toBe(200);
    expect(jwksHits - before).toBeLessThanOrEqual(1);
  });

  it("a rotated key at jwks_uri is picked up: an unknown kid refetches (at most once a minute)", async () => {
    clearClientJwksCache();
    setNow(new Date());
    expect((await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(remote, remoteClient) })).status).toBe(200);
    const next = await signer("remote-2");
    served = { keys: [remote.publicJwk, next.publicJwk] };
    // Within the cool-down the cached set is used: the new kid is unknown.
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(next, remoteClient) }), /kid matches none/);
    advance(61_000);
    expect((await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(next, remoteClient) })).status).toBe(200);
  });

  it("the same assertion twice is a replay (jti), refused the second time", async () => {
    const a = await assertion(inline, inlineClient);
    expect((await revokeWith({ client_assertion_type: TYPE, client_assertion: a })).status).toBe(200);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: a }), /already used/);
  });

  it("refuses unknown kid, a foreign key, alg none, HMAC, wrong aud, expired, too long-lived and missing jti", async () => {
    const stranger = await signer("inline-1");
    const at = Math.floor(now().getTime() / 1000);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(inline, inlineClient, {}, { kid: "nope" }) }), /kid matches none/);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(stranger, inlineClient) }), /signature is invalid/);
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const none = `${b64({ alg: "none" })}.${b64({ iss: inlineClient, sub: inlineClient, aud: issuer, exp: at + 60, jti: "n1" })}.`;
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: none }), /alg must be one of/);
    const hmac = await new SignJWT({ jti: "h1" }).setProtectedHeader({ alg: "HS256" }).setIssuer(inlineClient).setSubject(inlineClient).setAudience(issuer).setExpirationTime(at + 60).sign(new TextEncoder().encode("x".repeat(32)));
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: hmac }), /alg must be one of/);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(inline, inlineClient, { aud: "https://elsewhere.example/token" }) }), /aud/);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(inline, inlineClient, { exp: at - 120 }) }), /expired/);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(inline, inlineClient, { exp: at + 3600 }) }), /at most 300 seconds/);
    const noJti = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: inline.kid }).setIssuer(inlineClient).setSubject(inlineClient).setAudience(issuer).setExpirationTime(at + 60).sign(inline.privateKey);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: noJti }), /jti/);
  });

  it("aud may name the issuer, the token endpoint or the endpoint called", async () => {
    for (const aud of [issuer, `${issuer}/api/oauth/token`, `${issuer}/api/oauth/revoke`]) {
      expect((await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(inline, inlineClient, { aud }) })).status).toBe(200);
    }
  });

  it("a key client must use its key, other clients may not send an assertion, and methods do not mix", async () => {
    await expectRefused(await revokeWith({ client_id: inlineClient }), /private_key_jwt/);
    await expectRefused(await revokeWith({ client_id: inlineClient, client_secret: "guess" }), /private_key_jwt/);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: await assertion(inline, "demo-public-app") }), /does not authenticate with private_key_jwt/);
    const a = await assertion(inline, inlineClient);
    const mixed = await revokeWith({ client_assertion_type: TYPE, client_assertion: a, client_secret: "x" });
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toMatchObject({ error: "invalid_request" });
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: a, client_id: "demo-public-app" }), /does not match/);
    const wrongType = await revokeWith({ client_assertion_type: "urn:other", client_assertion: a });
    expect(wrongType.status).toBe(400);
    await expectRefused(await revokeWith({ client_assertion_type: TYPE, client_assertion: "not.a.jwt" }), /not a JWT/);
  });

  it("registration of keys refuses private parts, both kinds at once and non-https URIs", async () => {
    const priv = await exportJWK(inline.privateKey);
    const base = { db: db(), school: "demo", name: "Bad", redirectUris: [CB], scope: "openid", confidential: true };
    await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), ...base, jwks: { keys: [priv] } })).rejects.toThrow(/public keys only/);
    await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), ...base, jwks: { keys: [inline.publicJwk] }, jwksUri: "https://keys.example/jwks" })).rejects.toThrow(OAuthClientCommandError);
    await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), ...base, jwksUri: "http://keys.example/jwks" })).rejects.toThrow(/https/);
    await expect(createOAuthClient({ actor: TEST_ACTOR, now: new Date(), ...base, confidential: false, jwks: { keys: [inline.publicJwk] } })).rejects.toThrow(/public client/);
    expect(await db().oAuthClient.count({ where: { name: "Bad" } })).toBe(0);
    expect(await db().oAuthClient.findUniqueOrThrow({ where: { clientId: inlineClient } })).toMatchObject({ tokenEndpointAuthMethod: "private_key_jwt", clientSecretHash: null, schoolId: DEMO_IDS.school });
  });
});
