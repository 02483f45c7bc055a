import { describe, expect, it } from "vitest";
import { ApiKeyCommandError, createApiKey, listApiKeys, parsePermissions, revokeApiKey } from "@/lib/admin-api/api-keys";
import { now } from "@/lib/clock";
import { ALL_PERMISSIONS } from "@/lib/credentials/permissions";
import { db } from "@/lib/db/client";
import { gql, adminAppForSuite } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = adminAppForSuite({ now: null });

describe("API key management (npm run apikey)", () => {
  it("creates a key shown once, stored only as a hash, that works until revoked", async () => {
    const created = await createApiKey({ actor: TEST_ACTOR, now: new Date(), school: "acme-training", name: "ci", permissions: ["membershipPlans"], enforceLimits: true });
    expect(created.key).toMatch(/^sh_[a-z0-9]+_[A-Za-z0-9_-]{20,}$/);
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: created.id } });
    // The secret is everything after `sh_<prefix>_`; base64url secrets can themselves contain "_".
    expect(JSON.stringify(row)).not.toContain(created.key.slice(`sh_${created.prefix}_`.length));
    expect(row.permissions).toEqual(["membershipPlans"]);
    const ok = await gql(app, "{ membershipPlans { id } }", {}, { key: created.key });
    expect(ok.status).toBe(200);

    const listed = await listApiKeys({ school: "acme-training" });
    expect(listed.map((k) => k.prefix)).toContain(created.prefix);
    expect(JSON.stringify(listed)).not.toContain("secretHash");

    expect((await revokeApiKey({ actor: TEST_ACTOR, ref: created.key, now: now() })).alreadyRevoked).toBe(false);
    expect((await revokeApiKey({ actor: TEST_ACTOR, ref: created.prefix, now: now() })).alreadyRevoked).toBe(true);
    const refused = await gql(app, "{ membershipPlans { id } }", {}, { key: created.key });
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].message).toBe("This API key has been revoked.");
  });

  it("parses permission lists and refuses unknown names, schools and keys", async () => {
    expect(parsePermissions(undefined)).toEqual([ALL_PERMISSIONS]);
    expect(parsePermissions("all")).toEqual([ALL_PERMISSIONS]);
    expect(parsePermissions("none")).toEqual([]);
    expect(parsePermissions("courses, subscriptions,courses")).toEqual(["courses", "subscriptions"]);
    expect(() => parsePermissions("courses,deleteEverything")).toThrow(ApiKeyCommandError);
    await expect(createApiKey({ actor: TEST_ACTOR, now: new Date(), school: "nope", name: "x", permissions: [], enforceLimits: false })).rejects.toThrow(/no school/);
    await expect(revokeApiKey({ actor: TEST_ACTOR, ref: "doesnotexist", now: now() })).rejects.toThrow(/no API key/);
  });
});
