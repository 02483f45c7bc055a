import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/credentials/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/credentials/api-keys/revoke-api-key";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// Next.js bundles the console's server actions, the proxy (which answers /admin/graphql) and the
// route handlers separately: each has its own instance of lib/credentials/api-key-cache.ts. The
// cache's state lives on globalThis, keyed by the database handle (lib/db/credential-cache.ts), so a
// key revoked through one bundle is refused by every other on its next request, not a version bound
// later. Two module instances here stand for two bundles; the version bound is set long, so only
// the shared state can explain a refusal.
const LONG_BOUND_MS = 60_000;

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  process.env.STOREFRONT_REVALIDATE_MS = String(LONG_BOUND_MS);
  resetEnvCache();
});
afterAll(() => {
  process.env.STOREFRONT_REVALIDATE_MS = "0";
  resetEnvCache();
});

const newKey = async (name: string) => (await createApiKey({ schoolId: DEMO_IDS.school, input: { name, permissions: ["courses"] }, now: new Date(), actor: TEST_ACTOR })).record!.apiKey;

describe("the API-key cache across bundles", () => {
  it("a revocation through one bundle's module is seen by another bundle's next lookup", async () => {
    const proxyBundle = await import("@/lib/credentials/api-key-cache");
    vi.resetModules();
    const actionBundle = await import("@/lib/credentials/api-key-cache");
    const actionVerbs = await import("@/lib/credentials/api-keys/revoke-api-key");
    // Two instances of the module, as two bundles have.
    expect(actionBundle.findApiKey).not.toBe(proxyBundle.findApiKey);
    expect(actionVerbs.revokeApiKey).not.toBe(revokeApiKey);

    const key = await newKey("seen everywhere");
    expect((await proxyBundle.findApiKey(key.prefix))?.revokedAt).toBeNull();
    // Cached in the proxy's bundle: a change behind the cache's back is not seen within the bound.
    await db().apiKey.update({ where: { id: key.id }, data: { name: "renamed behind the cache" } });
    expect((await proxyBundle.findApiKey(key.prefix))?.name).toBe("seen everywhere");

    // The console's action revokes it through its own bundle's verb (which forgets its cache).
    const revoked = await actionVerbs.revokeApiKey({ schoolId: DEMO_IDS.school, input: { id: key.id }, now: new Date(), actor: TEST_ACTOR });
    expect(revoked.errors).toEqual([]);
    const seen = await proxyBundle.findApiKey(key.prefix);
    expect(seen?.revokedAt).not.toBeNull();
    expect(seen?.name).toBe("renamed behind the cache");
  });

  it("forgetting in one bundle drops what another cached", async () => {
    const proxyBundle = await import("@/lib/credentials/api-key-cache");
    vi.resetModules();
    const otherBundle = await import("@/lib/credentials/api-key-cache");
    const key = await newKey("forgotten everywhere");
    await proxyBundle.findApiKey(key.prefix);
    expect(proxyBundle.apiKeyCacheStats().entries).toBeGreaterThan(0);
    expect(otherBundle.apiKeyCacheStats().entries).toBe(proxyBundle.apiKeyCacheStats().entries);
    otherBundle.forgetApiKeys();
    expect(proxyBundle.apiKeyCacheStats().entries).toBe(0);
  });
});
