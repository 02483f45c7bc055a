// The OAuth apps of a school as the staff console manages them (lib/oauth/school-apps/): its own
// confidential clients (secret once, hashed; rotate; revoke ending grants and tokens), the platform,
// vendor and metadata-document apps with grants at the school, grants per client, and the school's
// Client ID Metadata Document setting.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { clearCimdCache } from "@/lib/oauth/cimd";
import { CIMD_OFF_MESSAGE } from "@/lib/oauth/authorize";
import { APP_NAME_INVALID, APP_NOT_FOUND, REDIRECT_URIS_REQUIRED, SCOPE_REQUIRED } from "@/lib/oauth/school-apps/app-input";
import { createSchoolClient } from "@/lib/oauth/school-apps/create-school-client";
import { listClientGrants } from "@/lib/oauth/school-apps/list-client-grants";
import { listSchoolApps } from "@/lib/oauth/school-apps/list-school-apps";
import { revokeSchoolApp } from "@/lib/oauth/school-apps/revoke-school-app";
import { NO_SECRET_TO_ROTATE, rotateSchoolClientSecret } from "@/lib/oauth/school-apps/rotate-school-client-secret";
import { setCimdAllowed } from "@/lib/oauth/school-apps/set-cimd-allowed";
import { appForSuite } from "../../helpers/app-for-suite";
import { DEMO_IDS } from "../admin-api/helpers";
import { VERIFIER, authorizeUrl, exchangeCode, getCode, signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// The demo school's own host: authorize knows the school without the picker.
const app = appForSuite({ host: "demo.localhost" });
const school = DEMO_IDS.school;
const REDIRECT = "https://reports.example/cb";
let cookie: string;
let meta: Server;
let docOrigin: string;

beforeAll(async () => {
  meta = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ client_id: `${docOrigin}${req.url}`, client_name: "Agent", redirect_uris: ["http://127.0.0.1/callback"] }));
  });
  await new Promise<void>((r) => meta.listen(0, "127.0.0.1", r));
  docOrigin = `http://127.0.0.1:${(meta.address() as AddressInfo).port}`;
  process.env.OAUTH_CIMD_ALLOWED_HOSTS = "127.0.0.1";
  process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS = "1";
  resetEnvCache();
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterAll(async () => {
  process.env.OAUTH_CIMD_ALLOWED_HOSTS = "none";
  delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS;
  resetEnvCache();
  clearCimdCache();
  await db().school.update({ where: { id: school }, data: { cimdAllowed: true } });
  meta.closeAllConnections();
  await new Promise((r) => meta.close(r));
});

/** A code for the client, redeemed with the secret given: the token endpoint's status. */
async function redeemWith(clientId: string, secret: string): Promise<number> {
  const { code } = await getCode(app, cookie, { client_id: clientId, redirect_uri: REDIRECT });
  const res = await exchangeCode(app, code, { client_id: clientId, client_secret: secret, redirect_uri: REDIRECT, code_verifier: VERIFIER });
  return res.status;
}

async function newClient(name = "Reporting") {
  const created = await createSchoolClient({ actor: TEST_ACTOR, now: new Date(), schoolId: school, input: { name, redirectUris: [REDIRECT, REDIRECT], scopes: ["openid", "profile"] } });
  expect(created.errors).toEqual([]);
  return created.record!;
}

describe("the school's confidential clients", () => {
  it("creates one whose secret is shown once and stored salted and hashed, and that works at the token endpoint", async () => {
    const { client, secret } = await newClient();
    expect(secret).toMatch(/^ocs_/);
    expect(client).toMatchObject({ schoolId: school, tokenEndpointAuthMethod: "client_secret_basic", redirectUris: [REDIRECT], scope: "openid profile" });
    const row = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: client.clientId } });
    expect(row.clientSecretHash).toMatch(/^s256\$/);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await redeemWith(client.clientId, secret)).toBe(200);
    expect(await redeemWith(client.clientId, `${secret}x`)).toBe(401);
  });

  it("refuses bad names, redirect URIs and scopes with the console's messages, creating nothing", async () => {
    const before = await db().oAuthClient.count();
    const cases: [Parameters<typeof createSchoolClient>[0]["input"], string | RegExp][] = [
      [{ name: "", redirectUris: [REDIRECT], scopes: ["openid"] }, APP_NAME_INVALID],
      [{ name: "a\u0000b", redirectUris: [REDIRECT], scopes: ["openid"] }, APP_NAME_INVALID],
      [{ name: "x", redirectUris: [" "], scopes: ["openid"] }, REDIRECT_URIS_REQUIRED],
      [{ name: "x", redirectUris: ["http://evil.example/cb"], scopes: ["openid"] }, /must be an https URL/],
      [{ name: "x", redirectUris: ["javascript:alert(1)"], scopes: ["openid"] }, /must be an https URL/],
      [{ name: "x", redirectUris: [REDIRECT], scopes: [] }, SCOPE_REQUIRED],
      [{ name: "x", redirectUris: [REDIRECT], scopes: ["admin:everything"] }, /Unknown scope "admin:everything"/],
    ];
    for (const [input, message] of cases) {
      const r = await createSchoolClient({ actor: TEST_ACTOR, now: new Date(), schoolId: school, input });
      expect(r.record).toBeNull();
      expect(r.errors[0]).toMatch(message);
    }
    expect(await db().oAuthClient.count()).toBe(before);
  });

  it("rotates: the old secret keeps working during the overlap, or stops at once when asked", async () => {
    const { client, secret } = await newClient("Rotating");
    const rotated = await rotateSchoolClientSecret({ actor: TEST_ACTOR, schoolId: school, input: { clientId: client.clientId }, now: now() });
    expect(rotated.errors).toEqual([]);
    expect(rotated.record!.previousValidUntil).not.toBeNull();
    expect(await redeemWith(client.clientId, secret)).toBe(200);
    expect(await redeemWith(client.clientId, rotated.record!.secret)).toBe(200);
    const leaked = await rotateSchoolClientSecret({ actor: TEST_ACTOR, schoolId: school, input: { clientId: client.clientId, endOldNow: true }, now: now() });
    expect(leaked.record!.previousValidUntil).toBeNull();
    expect(await redeemWith(client.clientId, rotated.record!.secret)).toBe(401);
    expect(await redeemWith(client.clientId, leaked.record!.secret)).toBe(200);
    expect((await rotateSchoolClientSecret({ actor: TEST_ACTOR, schoolId: school, input: { clientId: "demo-public-app" }, now: now() })).errors).toEqual([APP_NOT_FOUND]);
    expect((await rotateSchoolClientSecret({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { clientId: client.clientId }, now: now() })).errors).toEqual([APP_NOT_FOUND]);
    const pub = await db().oAuthClient.create({ data: { clientId: `oc_pub_${Date.now()}`, name: "Public", scope: "openid", schoolId: school, redirectUris: [REDIRECT] } });
    expect((await rotateSchoolClientSecret({ actor: TEST_ACTOR, schoolId: school, input: { clientId: pub.clientId }, now: now() })).errors).toEqual([NO_SECRET_TO_ROTATE]);
  });

  it("revokes: the client is unknown from then on and its grants and tokens end; another school cannot", async () => {
    const { client, secret } = await newClient("To revoke");
    const { code } = await getCode(app, cookie, { client_id: client.clientId, redirect_uri: REDIRECT, scope: "openid profile" });
    const tokens = await (await exchangeCode(app, code, { client_id: client.clientId, client_secret: secret, redirect_uri: REDIRECT })).json();
    expect(tokens.access_token).toBeTruthy();
    expect(await listClientGrants({ schoolId: school, clientId: client.clientId })).toEqual([
      expect.objectContaining({ email: "student@schoolhouse.test", scope: "openid profile" }),
    ]);
    expect((await revokeSchoolApp({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { clientId: client.clientId }, now: now() })).errors).toEqual([APP_NOT_FOUND]);
    const revoked = await revokeSchoolApp({ actor: TEST_ACTOR, schoolId: school, input: { clientId: client.clientId }, now: now() });
    expect(revoked.record).toEqual({ clientId: client.clientId, revokedGrants: 1 });
    expect(await listClientGrants({ schoolId: school, clientId: client.clientId })).toEqual([]);
    const userinfo = await app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).toBe(401);
    expect((await app.fetch(authorizeUrl({ client_id: client.clientId, redirect_uri: REDIRECT }), { headers: { cookie } })).status).toBe(400);
    // Twice is harmless.
    expect((await revokeSchoolApp({ actor: TEST_ACTOR, schoolId: school, input: { clientId: client.clientId }, now: now() })).errors).toEqual([]);
  });
});

describe("apps from elsewhere", () => {
  it("lists the school's clients, platform clients used here and metadata documents seen, with live grants", async () => {
    const { client } = await newClient("Listed");
    await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback" });
    const docId = `${docOrigin}/seen.json`;
    await db().oAuthGrant.create({ data: { clientId: docId, userId: DEMO_IDS.users.student, schoolId: school, scope: "openid", issuer: "http://localhost" } });
    const apps = await listSchoolApps({ schoolId: school });
    expect(apps.find((a) => a.clientId === client.clientId)).toMatchObject({ kind: "school_client", authMethod: "client_secret_basic" });
    expect(apps.find((a) => a.clientId === "demo-public-app")).toMatchObject({ kind: "platform_client", authMethod: "none" });
    expect(apps.find((a) => a.clientId === docId)).toMatchObject({ kind: "metadata_document", name: new URL(docOrigin).host, liveGrants: 1 });
    expect(JSON.stringify(apps)).not.toMatch(/s256\$|clientSecretHash/);
    expect((await listSchoolApps({ schoolId: DEMO_IDS.acmeSchool })).some((a) => a.clientId === client.clientId)).toBe(false);
  });

  it("ends a platform app's grants at this school only, leaving the client and other schools alone", async () => {
    await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback" });
    const elsewhere = await db().oAuthGrant.create({ data: { clientId: "demo-public-app", userId: DEMO_IDS.users.acmeEmployee, schoolId: DEMO_IDS.acmeSchool, scope: "openid", issuer: "http://acme" } });
    const r = await revokeSchoolApp({ actor: TEST_ACTOR, schoolId: school, input: { clientId: "demo-public-app" }, now: now() });
    expect(r.record!.revokedGrants).toBeGreaterThan(0);
    expect(await db().oAuthGrant.count({ where: { schoolId: school, clientId: "demo-public-app", revokedAt: null } })).toBe(0);
    expect((await db().oAuthGrant.findUniqueOrThrow({ where: { id: elsewhere.id } })).revokedAt).toBeNull();
    expect((await db().oAuthClient.findUniqueOrThrow({ where: { clientId: "demo-public-app" } })).revokedAt).toBeNull();
    expect((await revokeSchoolApp({ actor: TEST_ACTOR, schoolId: school, input: { clientId: "https://never.example/seen.json" }, now: now() })).errors).toEqual([APP_NOT_FOUND]);
    expect((await revokeSchoolApp({ actor: TEST_ACTOR, schoolId: school, input: { clientId: "no-such-client" }, now: now() })).errors).toEqual([APP_NOT_FOUND]);
  });
});

describe("the school's Client ID Metadata Document setting", () => {
  it("off: authorize shows an error page, discovery says unsupported, and documents' grants here end; on again: accepted", async () => {
    const docId = `${docOrigin}/agent.json`;
    const start = () => app.fetch(authorizeUrl({ client_id: docId, redirect_uri: "http://127.0.0.1/callback" }), { headers: { cookie } });
    expect((await start()).status).toBe(303);
    const grant = await db().oAuthGrant.create({ data: { clientId: docId, userId: DEMO_IDS.users.student, schoolId: school, scope: "openid", issuer: "http://localhost" } });
    const acmeGrant = await db().oAuthGrant.create({ data: { clientId: docId, userId: DEMO_IDS.users.acmeEmployee, schoolId: DEMO_IDS.acmeSchool, scope: "openid", issuer: "http://acme" } });

    const off = await setCimdAllowed({ actor: TEST_ACTOR, schoolId: school, input: { allowed: false }, now: now() });
    expect(off.record).toMatchObject({ allowed: false });
    expect(off.record!.revokedGrants).toBeGreaterThanOrEqual(1);
    expect((await db().oAuthGrant.findUniqueOrThrow({ where: { id: grant.id } })).revokedAt).not.toBeNull();
    expect((await db().oAuthGrant.findUniqueOrThrow({ where: { id: acmeGrant.id } })).revokedAt).toBeNull();
    const refused = await start();
    expect(refused.status).toBe(400);
    expect(refused.headers.get("location")).toBeNull();
    expect(await refused.text()).toContain(CIMD_OFF_MESSAGE.slice(0, 40));
    const discovery = await (await app.fetch("/.well-known/oauth-authorization-server")).json();
    expect(discovery.client_id_metadata_document_supported).toBe(false);
    // Registered clients are not affected.
    expect((await app.fetch(authorizeUrl({ client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback" }), { headers: { cookie } })).status).toBe(303);

    await setCimdAllowed({ actor: TEST_ACTOR, schoolId: school, input: { allowed: true }, now: now() });
    expect((await start()).status).toBe(303);
    expect((await (await app.fetch("/.well-known/oauth-authorization-server")).json()).client_id_metadata_document_supported).toBe(true);
  });
});
