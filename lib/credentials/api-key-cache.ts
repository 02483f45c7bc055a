// Process cache of Admin API key rows, so verifying a key costs no query per request. Exact
// invalidation and what is (never) cached: lib/db/credential-cache.ts. The triggers of migration
// 15a_credential_version bump the version whenever anything verification reads changes: a key's
// secret, permissions, limits, expiry or revocation, a key deleted, its school disabled. revokeApiKey
// and school changes call forgetApiKeys().
import { createCredentialCache, toVersion } from "../db/credential-cache";
import { rawQuery, rowDate } from "../db/raw";
import { grantedOperations } from "./permissions";

/** What verifying a key needs: the row and its school's disabledAt. */
export interface CachedApiKey {
  id: string;
  schoolId: string;
  /** The key's name, for the audit log's actor label. */
  name: string;
  prefix: string;
  secretHash: string;
  /** The operations the key may run now: its stored list, or every operation for ALL_PERMISSIONS. */
  permissions: string[];
  enforceLimits: boolean;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  schoolDisabledAt: Date | null;
}

/** Keys kept per process; least recently used beyond it are dropped (a few hundred bytes each). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

// The key, its school's disabledAt and the version they belong to, in one named statement (one
// snapshot; docs/benchmarks.md, "One statement per hot read"), as the OAuth client cache loads.
const LOAD_API_KEY = `
SELECT k."id"::text AS "id", k."schoolId"::text AS "schoolId", k."name", k."prefix", k."secretHash", k."permissions", k."enforceLimits",
       k."lastUsedAt", k."expiresAt", k."revokedAt", s."disabledAt" AS "schoolDisabledAt",
       (SELECT "version"::text FROM "CredentialVersion" WHERE "id" = 1) AS "credentialVersion"
  FROM "ApiKey" k
  JOIN "School" s ON s."id" = k."schoolId"
 WHERE k."prefix" = $1`;

async function loadApiKey(prefix: string): Promise<{ row: CachedApiKey | null; version?: bigint | null }> {
  const [r] = await rawQuery<Record<string, unknown>>(LOAD_API_KEY, [prefix], { name: "load-api-key", readOnly: true });
  if (!r) return { row: null };
  return {
    version: toVersion(r.credentialVersion),
    row: {
      id: r.id as string,
      schoolId: r.schoolId as string,
      name: r.name as string,
      prefix: r.prefix as string,
      secretHash: r.secretHash as string,
      permissions: grantedOperations((r.permissions as string[] | null) ?? []),
      enforceLimits: Boolean(r.enforceLimits),
      lastUsedAt: rowDate(r.lastUsedAt),
      expiresAt: rowDate(r.expiresAt),
      revokedAt: rowDate(r.revokedAt),
      schoolDisabledAt: rowDate(r.schoolDisabledAt),
    },
  };
}

const cache = createCredentialCache<CachedApiKey>({ name: "api-keys", maxEntries: API_KEY_CACHE_MAX_ENTRIES, load: loadApiKey });

/** The key row with this prefix (from the cache when its version is current), or null. */
export const findApiKey = (prefix: string): Promise<CachedApiKey | null> => cache.find(prefix);

/**
 * Drops every cached key of this process and distrusts version reads already made: the next
 * verification reads the version and the row again. Called after this process changed a key or a
 * school, so the change holds on this instance at once (other instances: within the bound).
 */
export const forgetApiKeys = (): void => cache.forget();

/** Records on the cached row that lastUsedAt was written, so other requests skip the write. */
export function noteApiKeyUsed(key: CachedApiKey, at: Date): void {
  key.lastUsedAt = at;
}

export const apiKeyCacheStats = (): { entries: number } => cache.stats();
