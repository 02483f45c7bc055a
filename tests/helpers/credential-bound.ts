// The credential caches (lib/db/credential-cache.ts) trust their last version read for
// STOREFRONT_REVALIDATE_MS. The integration suites run with 0 (read every time); the cache suites
// set a production-like bound for their own run and wait it out where a change must show.
import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";

export const BOUND_MS = 400;

/** Sets the bound for this suite (restored to the suites' 0 after it). */
export function withCredentialBound(): void {
  beforeAll(() => {
    process.env.STOREFRONT_REVALIDATE_MS = String(BOUND_MS);
    resetEnvCache();
  });
  afterAll(() => {
    process.env.STOREFRONT_REVALIDATE_MS = "0";
    resetEnvCache();
  });
}

export const pastBound = () => new Promise((r) => setTimeout(r, BOUND_MS + 50));

export const credentialVersion = async () => (await db().credentialVersion.findUniqueOrThrow({ where: { id: 1 } })).version;
