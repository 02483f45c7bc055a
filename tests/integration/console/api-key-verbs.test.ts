// The API-key verbs of the staff console (lib/credentials/api-keys/): create with a name,
// permissions and an expiry, shown once; list with last use; revoke; rotate. Expired keys are
// refused like revoked ones, by the Admin API and by MCP, even while their row is cached.
import { describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { createApiKey } from "@/lib/credentials/api-keys/create-api-key";
import { API_KEY_NOT_FOUND, EXPIRY_NOT_FUTURE, EXPIRY_TOO_FAR, KEY_NAME_INVALID } from "@/lib/credentials/api-keys/key-input";
import { findApiKeyRecord, listApiKeys } from "@/lib/credentials/api-keys/list-api-keys";
import { revokeApiKey } from "@/lib/credentials/api-keys/revoke-api-key";
import { KEY_NOT_ACTIVE, rotateApiKey } from "@/lib/credentials/api-keys/rotate-api-key";
import { db } from "@/lib/db/client";
import { DEMO_IDS, TEST_NOW, adminAppForSuite, gql } from "../admin-api/helpers";
import { rpc, toolCall } from "../mcp/helpers";
import { credentialVersion } from "@/tests/helpers/credential-bound";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = adminAppForSuite();
const school = DEMO_IDS.school;
const PLANS_QUERY = "{ membershipPlans { id } }";

async function make(name: string, extra: { permissions?: string[]; expiresAt?: Date | null } = {}) {
  const created = await createApiKey({ actor: TEST_ACTOR, schoolId: school, input: { name, permissions: extra.permissions ?? ["membershipPlans"], expiresAt: extra.expiresAt }, now: now() });
  expect(created.errors).toEqual([]);
  return created.record!;
}

describe("createApiKey", () => {
  it("returns the key once and stores only its hash, with the name, permissions and expiry given", async () => {
    const expiresAt = new Date(TEST_NOW.getTime() + 86_400_000);
    const { key, apiKey } = await make("  Zapier  ", { permissions: ["membershipPlans", "courses", "courses"], expiresAt });
    expect(key).toMatch(/^sh_[a-z0-9]+_[A-Za-z0-9_-]{20,}$/);
    expect(apiKey).toMatchObject({ name: "Zapier", permissions: ["membershipPlans", "courses"], expiresAt, status: "active", lastUsedAt: null });
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(JSON.stringify(row)).not.toContain(key.slice(`sh_${apiKey.prefix}_`.length));
    expect(JSON.stringify(await listApiKeys({ schoolId: school, now: now() }))).not.toContain("secretHash");
    expect((await gql(app, PLANS_QUERY, {}, { key })).status).toBe(200);
  });

  it("refuses a bad name, an unknown permission, an expiry in the past or too far, writing nothing", async () => {
    const before = await db().apiKey.count();
    const cases: [Parameters<typeof createApiKey>[0]["input"], string | RegExp][] = [
      [{ name: " ", permissions: [] }, KEY_NAME_INVALID],
      [{ name: "x".repeat(101), permissions: [] }, KEY_NAME_INVALID],
      [{ name: "line\nbreak", permissions: [] }, KEY_NAME_INVALID],
      [{ name: "ok", permissions: ["dropEverything"] }, /Unknown permission "dropEverything"/],
      [{ name: "ok", permissions: [], expiresAt: new Date(TEST_NOW.getTime() - 1) }, EXPIRY_NOT_FUTURE],
      [{ name: "ok", permissions: [], expiresAt: new Date(Number.NaN) }, EXPIRY_NOT_FUTURE],
      [{ name: "ok", permissions: [], expiresAt: new Date(TEST_NOW.getTime() + 6 * 366 * 86_400_000) }, EXPIRY_TOO_FAR],
    ];
    for (const [input, message] of cases) {
      const r = await createApiKey({ actor: TEST_ACTOR, schoolId: school, input, now: now() });
      expect(r.record).toBeNull();
      expect(r.errors[0]).toMatch(message);
    }
    expect(await db().apiKey.count()).toBe(before);
  });
});

describe("listApiKeys", () => {
  it("shows each key's status and last use, live keys first, and only the school's own", async () => {
    const used = await make("used");
    const revoked = await make("revoked");
    await revokeApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: revoked.apiKey.id }, now: now() });
    expect((await gql(app, PLANS_QUERY, {}, { key: used.key })).status).toBe(200);
    const list = await listApiKeys({ schoolId: school, now: now() });
    expect(list.find((k) => k.id === used.apiKey.id)?.lastUsedAt).toEqual(TEST_NOW);
    expect(list.find((k) => k.id === revoked.apiKey.id)?.status).toBe("revoked");
    const firstInactive = list.findIndex((k) => k.status !== "active");
    expect(list.slice(firstInactive).every((k) => k.status !== "active")).toBe(true);
    expect(list.some((k) => k.id === DEMO_IDS.apiKeys.acmeFull)).toBe(false);
    expect(await findApiKeyRecord({ schoolId: school, id: DEMO_IDS.apiKeys.acmeFull, now: now() })).toBeNull();
  });

  it("writes last use at most once a minute per key", async () => {
    const { key, apiKey } = await make("minute");
    const lastUsed = async () => (await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt;
    try {
      expect((await gql(app, PLANS_QUERY, {}, { key })).status).toBe(200);
      const first = await lastUsed();
      advance(30_000);
      expect((await gql(app, PLANS_QUERY, {}, { key })).status).toBe(200);
      expect(await lastUsed()).toEqual(first);
      advance(31_000);
      expect((await gql(app, PLANS_QUERY, {}, { key })).status).toBe(200);
      expect(await lastUsed()).toEqual(now());
    } finally {
      setNow(TEST_NOW);
    }
  });
});

describe("revokeApiKey and rotateApiKey", () => {
  it("revokes at once, twice without harm, and not another school's key", async () => {
    const { key, apiKey } = await make("to revoke");
    expect((await gql(app, PLANS_QUERY, {}, { key })).status).toBe(200);
    const first = await revokeApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: apiKey.id }, now: now() });
    expect(first.record?.status).toBe("revoked");
    const again = await revokeApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: apiKey.id }, now: new Date(TEST_NOW.getTime() + 5000) });
    expect(again.record?.revokedAt).toEqual(first.record?.revokedAt);
    const refused = await gql(app, PLANS_QUERY, {}, { key });
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].message).toBe("This API key has been revoked.");
    expect((await revokeApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: DEMO_IDS.apiKeys.acmeFull }, now: now() })).errors).toEqual([API_KEY_NOT_FOUND]);
    expect((await revokeApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: "not-a-uuid" }, now: now() })).errors).toEqual([API_KEY_NOT_FOUND]);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: DEMO_IDS.apiKeys.acmeFull } })).revokedAt).toBeNull();
  });

  it("rotates: a new secret with the same name, permissions and expiry; the old key refused", async () => {
    const expiresAt = new Date(TEST_NOW.getTime() + 7 * 86_400_000);
    const old = await make("rotating", { permissions: ["membershipPlans", "courses"], expiresAt });
    const rotated = await rotateApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: old.apiKey.id }, now: now() });
    expect(rotated.errors).toEqual([]);
    const { key, apiKey } = rotated.record!;
    expect(key).not.toBe(old.key);
    expect(apiKey).toMatchObject({ name: "rotating", permissions: ["membershipPlans", "courses"], expiresAt, status: "active" });
    expect(apiKey.prefix).not.toBe(old.apiKey.prefix);
    expect((await gql(app, PLANS_QUERY, {}, { key: old.key })).status).toBe(401);
    expect((await gql(app, PLANS_QUERY, {}, { key })).status).toBe(200);
    // A second rotation of the old key (a double submit) makes no third key.
    const count = await db().apiKey.count({ where: { name: "rotating" } });
    expect((await rotateApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: old.apiKey.id }, now: now() })).errors).toEqual([KEY_NOT_ACTIVE]);
    expect(await db().apiKey.count({ where: { name: "rotating" } })).toBe(count);
    expect((await rotateApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: DEMO_IDS.apiKeys.acmeFull }, now: now() })).errors).toEqual([API_KEY_NOT_FOUND]);
  });

  it("two rotations of one key at once: one wins, the other changes nothing", async () => {
    const old = await make("race");
    const results = await Promise.all([1, 2].map(() => rotateApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: old.apiKey.id }, now: now() })));
    expect(results.filter((r) => r.record).length).toBe(1);
    expect(await db().apiKey.count({ where: { name: "race", revokedAt: null } })).toBe(1);
  });
});

describe("expiry", () => {
  it("refuses a key once its expiry passes, though its row is cached and nothing bumped the version (Admin API and MCP)", async () => {
    const { key } = await make("expiring", { permissions: ["membershipPlans", "members"], expiresAt: new Date(TEST_NOW.getTime() + 60_000) });
    try {
      expect((await gql(app, PLANS_QUERY, {}, { key })).status).toBe(200);
      const mcpOk = await rpc(app, toolCall("list_members", {}), { authorization: `Bearer ${key}` });
      expect(mcpOk.status).toBe(200);
      const version = await credentialVersion();
      advance(60_000);
      const refused = await gql(app, PLANS_QUERY, {}, { key });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ errors: [{ message: "This API key has expired.", extensions: { code: "UNAUTHENTICATED" } }] });
      const mcpRefused = await rpc(app, toolCall("list_members", {}), { authorization: `Bearer ${key}` });
      expect(mcpRefused.status).toBe(401);
      expect(mcpRefused.headers.get("www-authenticate")).toContain("invalid_token");
      expect(await credentialVersion()).toBe(version);
    } finally {
      setNow(TEST_NOW);
    }
  });

  it("cannot rotate an expired key", async () => {
    const { apiKey } = await make("expired rotate", { expiresAt: new Date(TEST_NOW.getTime() + 1000) });
    try {
      advance(1000);
      expect((await rotateApiKey({ actor: TEST_ACTOR, schoolId: school, input: { id: apiKey.id }, now: now() })).errors).toEqual([KEY_NOT_ACTIVE]);
      expect((await listApiKeys({ schoolId: school, now: now() })).find((k) => k.id === apiKey.id)?.status).toBe("expired");
    } finally {
      setNow(TEST_NOW);
    }
  });
});
