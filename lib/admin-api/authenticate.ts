import { apiKeyMatches, parseApiKey } from "../credentials/api-key";
import type { Credential } from "../credentials/credential";
import { db } from "../db/client";
import { findApiKey, noteApiKeyUsed } from "../credentials/api-key-cache";
import { AuthenticationError } from "./errors";

export const API_KEY_HEADER = "x-service-api-key";

export interface AdminCredential extends Credential {
  kind: "api_key";
  /** ApiKey row id (also the credential id). */
  id: string;
}

// Writing lastUsedAt on every request would add a write to each call; a minute's precision is enough.
const LAST_USED_PRECISION_MS = 60_000;

/**
 * The caller of an Admin API request, from its X-Service-API-Key header. The prefix finds the row;
 * the whole key is compared with the stored hash in constant time. Every failure is a 401. The row
 * comes from the process cache of keys (./api-key-cache.ts: exact, trigger-driven invalidation), so a
 * verification usually runs no query; the checks below run on every request all the same.
 */
export async function authenticateApiKey(options: { headers: Headers; now: Date }): Promise<AdminCredential> {
  const { headers, now } = options;
  const raw = headers.get(API_KEY_HEADER);
  if (raw === null || raw.trim() === "") {
    if (/^\s*bearer\s/i.test(headers.get("authorization") ?? "")) {
      throw new AuthenticationError(
        "OAuth access tokens are not accepted by the Admin API while it is in preview: send an API key in the X-Service-API-Key header.",
      );
    }
    throw new AuthenticationError("Missing API key: send it in the X-Service-API-Key header.");
  }
  const parsed = parseApiKey(raw);
  const row = parsed ? await findApiKey(parsed.prefix) : null;
  if (!row || !apiKeyMatches(raw, row.secretHash)) throw new AuthenticationError("Invalid API key.");
  // A disabled school's keys stop working with it; the message does not say more than a revoked key's.
  if (row.schoolDisabledAt) throw new AuthenticationError("This API key has been revoked.");
  if (row.revokedAt && row.revokedAt <= now) throw new AuthenticationError("This API key has been revoked.");
  if (row.expiresAt && row.expiresAt <= now) throw new AuthenticationError("This API key has expired.");

  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    // Noted first, so concurrent requests of this key do not write it too. The column is not one the
    // CredentialVersion trigger watches: this write does not empty any cache.
    noteApiKeyUsed(row, now);
    await db().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return {
    kind: "api_key",
    id: row.id,
    schoolId: row.schoolId,
    permissions: row.permissions,
    enforceLimits: row.enforceLimits,
  };
}
