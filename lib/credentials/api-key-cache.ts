// Process cache of Admin API key rows, so verifying a key costs no query per request. Exact
// invalidation and what is (never) cached: lib/db/credential-cache.ts. The triggers of migration
// 15a_credential_version bump the version whenever anything verification reads changes: a key's
// secret, permissions, limits, expiry or revocation, a key deleted, its school disabled. revokeApiKey
// and school changes call forgetApiKeys().
import { createCredentialCache } from "../db/credential-cache";
import { db } from "../db/client";

/** What verifying a key needs: the row and its school's disabledAt. */
export interface CachedApiKey {
  id: string;
  schoolId: string;
  /** The key's name, for the audit log's actor label. */
  name: string;
  prefix: string;
  secretHash: string;
  permissions: string[];
  enforceLimits: boolean;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  schoolDisabledAt: Date | null;
}

/** Keys kept per process; least recently used beyond it are dropped (a few hundred bytes each). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

const cache = createCredentialCache<CachedApiKey>({
  name: "api-keys",
  maxEntries: API_KEY_CACHE_MAX_ENTRIES,
  async load(prefix) {
    const row = await db().apiKey.findUnique({ where: { prefix }, include: { school: { select: { disabledAt: true } } } });
    if (!row) return { row: null };
    const { school, createdAt: _createdAt, ...key } = row;
    return { row: { ...key, schoolDisabledAt: school.disabledAt } };
  },
});

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
