import { describe, expect, it } from "vitest";
import { credentialVersion, pastBound, withCredentialBound } from "@/tests/helpers/credential-bound";
import { apiKeyCacheStats } from "@/lib/credentials/api-key-cache";
import { createApiKey, revokeApiKey } from "@/lib/admin-api/api-keys";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { setSchoolEnabled } from "@/lib/schools/manage-schools";
import { adminAppForSuite, gql } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// API-key verification is served from a process cache (lib/credentials/api-key-cache.ts) whose
// entries hold only while the database's CredentialVersion is unchanged; triggers bump it on every
// change verification depends on. These tests run with the production-like bound set explicitly.
const app = adminAppForSuite({ now: null });

const version = credentialVersion;
const typename = (key: string) => gql(app, "{ __typename }", {}, { key });
const newKey = async (name: string) =>
  (await createApiKey({ actor: TEST_ACTOR, now: new Date(), school: "demo", name, permissions: ["subscriptions", "createSubscription"], enforceLimits: false })).key;

withCredentialBound();

describe("the API-key cache", () => {
  it("keeps verifying every request against a cached row", async () => {
    const key = await newKey("cached");
    expect((await typename(key)).status).toBe(200);
    expect(apiKeyCacheStats().entries).toBeGreaterThan(0);
    expect((await typename(key)).status).toBe(200);
    // The whole key is still compared with the stored hash: a wrong secret under a cached prefix fails.
    const forged = key.slice(0, -4) + (key.endsWith("AAAA") ? "BBBB" : "AAAA");
    const refused = await typename(forged);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].message).toBe("Invalid API key.");
  });

  it("refuses a key revoked by this process at once, within the bound or not", async () => {
    const key = await newKey("revoked here");
    expect((await typename(key)).status).toBe(200);
    await revokeApiKey({ actor: TEST_ACTOR, ref: key, now: now() });
    const refused = await typename(key);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].message).toBe("This API key has been revoked.");
  });

  it("refuses a key revoked by another client (plain SQL) once the bound has passed", async () => {
    const key = await newKey("revoked elsewhere");
    expect((await typename(key)).status).toBe(200);
    const before = await version();
    await db().$executeRaw`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "name" = 'revoked elsewhere'`;
    expect(await version()).toBeGreaterThan(before);
    await pastBound();
    expect((await typename(key)).status).toBe(401);
  });

  it("refuses the keys of a school disabled at once, and takes them back when it is enabled", async () => {
    const key = await newKey("school disabled");
    expect((await typename(key)).status).toBe(200);
    await setSchoolEnabled({ actor: TEST_ACTOR, db: db(), school: "demo", enabled: false, now: now() });
    try {
      expect((await typename(key)).status).toBe(401);
    } finally {
      await setSchoolEnabled({ actor: TEST_ACTOR, db: db(), school: "demo", enabled: true, now: now() });
    }
    expect((await typename(key)).status).toBe(200);
  });

  it("sees changed permissions and deleted keys from the database (the trigger bumps the version)", async () => {
    const key = await newKey("changed");
    const list = "{ subscriptions(first: 1) { nodes { id } } }";
    expect((await gql(app, list, {}, { key })).body.errors).toBeUndefined();
    let v = await version();
    await db().apiKey.updateMany({ where: { name: "changed" }, data: { permissions: [] } });
    expect(await version()).toBeGreaterThan(v);
    await pastBound();
    expect((await gql(app, list, {}, { key })).body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");

    v = await version();
    await db().apiKey.deleteMany({ where: { name: "changed" } });
    expect(await version()).toBeGreaterThan(v);
    await pastBound();
    expect((await typename(key)).status).toBe(401);
  });

  it("does not empty the cache for lastUsedAt writes or new keys", async () => {
    const v = await version();
    const key = await newKey("quiet");
    await db().apiKey.updateMany({ where: { name: "quiet" }, data: { lastUsedAt: null } });
    expect((await typename(key)).status).toBe(200);
    expect((await db().apiKey.findFirstOrThrow({ where: { name: "quiet" } })).lastUsedAt).not.toBeNull();
    expect(await version()).toBe(v);
  });
});
