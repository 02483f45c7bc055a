import { rawQuery } from "../db/raw";
import { findApiKey, noteApiKeyUsed } from "./api-key-cache";
import { apiKeyMatches, parseApiKey } from "./api-key";
import type { Credential } from "./credential";

export interface ApiKeyCredential extends Credential {
  kind: "api_key";
  /** ApiKey row id (also the credential id). */
  id: string;
  /** The key's name (the audit log's actor label). */
  name: string;
}

/** A key that does not authenticate; the message is safe to show to the caller. */
export class ApiKeyRejectedError extends Error {
  override name = "ApiKeyRejectedError";
}

// Writing lastUsedAt on every request would add a write to each call; a minute's precision is enough.
const LAST_USED_PRECISION_MS = 60_000;

/**
 * The credential of an Admin API key, for every transport that accepts one (the Admin API's
 * X-Service-API-Key, MCP's Bearer). The prefix finds the row; the whole key is compared with the
 * stored hash in constant time. The row comes from the process cache of keys (./api-key-cache.ts:
 * exact, trigger-driven invalidation), so a verification usually runs no query; the checks below
 * run on every request all the same.
 */
export async function verifyApiKey(options: { key: string; now: Date }): Promise<ApiKeyCredential> {
  const { key, now } = options;
  const parsed = parseApiKey(key);
  const row = parsed ? await findApiKey(parsed.prefix) : null;
  if (!row || !apiKeyMatches(key, row.secretHash)) throw new ApiKeyRejectedError("Invalid API key.");
  // A disabled school's keys stop working with it; the message does not say more than a revoked key's.
  if (row.schoolDisabledAt) throw new ApiKeyRejectedError("This API key has been revoked.");
  if (row.revokedAt && row.revokedAt <= now) throw new ApiKeyRejectedError("This API key has been revoked.");
  if (row.expiresAt && row.expiresAt <= now) throw new ApiKeyRejectedError("This API key has expired.");

  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    // Noted first, so concurrent requests of this key do not write it too. The column is not one the
    // CredentialVersion trigger watches: this write does not empty any cache.
    noteApiKeyUsed(row, now);
    await rawQuery(`UPDATE "ApiKey" SET "lastUsedAt" = $2 WHERE "id" = $1::uuid`, [row.id, now], { name: "api-key-used" });
  }
  return {
    kind: "api_key",
    id: row.id,
    name: row.name,
    schoolId: row.schoolId,
    permissions: row.permissions,
    enforceLimits: row.enforceLimits,
  };
}
