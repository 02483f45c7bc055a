import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Webhook signing secrets. Standard Webhooks signs with HMAC-SHA256 under the secret itself, so the
// server must be able to read it back: it cannot be stored as a one-way hash like API keys. It is
// stored encrypted (AES-256-GCM) under a key derived from AUTH_SECRET, so a copy of the database
// alone does not let anyone forge deliveries (docs/security.md).

const VERSION = "v1";

/** A new secret in the Standard Webhooks format: whsec_ + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

function key(authSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, "", "schoolhouse webhook signing secrets v1", 32));
}

export function encryptWebhookSecret(secret: string, authSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(authSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

/** The secret, or an error when the ciphertext was not made under this AUTH_SECRET (or was altered). */
export function decryptWebhookSecret(stored: string, authSecret: string): string {
  const [version, data] = stored.split(".");
  if (version !== VERSION || !data) throw new Error("webhook secret: unknown storage format");
  const raw = Buffer.from(data, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(authSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
