import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { hashSecret } from "../credentials/secret";

// OAuth client secrets are issued by the server (256 random bits), never chosen, and stored as
// "s256$<salt hex>$<hex of SHA-256(salt || SHA-256 hex of the secret)>".
//
// Why a salted SHA-256 and not scrypt: an issued secret has 256 bits of entropy, so no dictionary or
// brute force can reach it whatever the hash costs; a slow hash would only cost every token request
// (the token endpoint is a hot path). The salt makes equal secrets (a secret pasted into two
// clients) hash differently and rules out precomputed tables. The inner SHA-256 hex is the old
// unsalted form, so the migration (12b_client_secrets) salted existing rows without the secret.

export const CLIENT_SECRET_PREFIX = "ocs_";
/** After a rotation the previous secret keeps working this long, so clients can roll over. */
export const CLIENT_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

const SCHEME = "s256";
const SALT_BYTES = 16;

/** A new client secret: a recognizable prefix (for secret scanners) and 256 random bits. */
export function generateClientSecret(): string {
  return CLIENT_SECRET_PREFIX + randomBytes(32).toString("base64url");
}

function digest(salt: Buffer, secret: string): Buffer {
  return createHash("sha256").update(salt).update(hashSecret(secret), "utf8").digest();
}

/** The stored form of a secret, with a fresh random salt (or the one given, for tests). */
export function hashClientSecret(secret: string, salt: Buffer = randomBytes(SALT_BYTES)): string {
  return `${SCHEME}$${salt.toString("hex")}$${digest(salt, secret).toString("hex")}`;
}

const STORED = /^s256\$([0-9a-f]{32})\$([0-9a-f]{64})$/;

/**
 * Whether a presented secret matches a stored hash, compared in constant time. A stored value in
 * any other form (null, the old unsalted digest) matches nothing.
 */
export function verifyClientSecret(secret: string, stored: string | null | undefined): boolean {
  const m = stored ? STORED.exec(stored) : null;
  // Unknown or missing hashes still cost one digest, so timing does not tell them apart.
  const salt = m ? Buffer.from(m[1]!, "hex") : Buffer.alloc(SALT_BYTES);
  const presented = digest(salt, secret);
  const expected = m ? Buffer.from(m[2]!, "hex") : Buffer.alloc(presented.length);
  return timingSafeEqual(presented, expected) && m !== null;
}

/** Which of a client's secrets a presented one matches: the current one, or the previous one within its overlap. */
export function matchClientSecret(
  secret: string,
  client: { clientSecretHash: string | null; previousClientSecretHash: string | null; previousClientSecretExpiresAt: Date | null },
  now: Date,
): "current" | "previous" | null {
  // Both are always checked, so the answer's timing does not tell which one matched.
  const current = verifyClientSecret(secret, client.clientSecretHash);
  const previous = verifyClientSecret(secret, client.previousClientSecretHash);
  if (current) return "current";
  if (previous && client.previousClientSecretExpiresAt && client.previousClientSecretExpiresAt > now) return "previous";
  return null;
}
