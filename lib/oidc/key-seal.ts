import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Private signing keys at rest: the webhook-secret mechanism (lib/webhooks/secret.ts), AES-256-GCM
// under a key derived from AUTH_SECRET, with its own HKDF label so the two never share a key. A copy
// of the database alone cannot sign ID tokens (docs/security.md).

const VERSION = "v1";

function key(authSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, "", "schoolhouse oidc signing keys v1", 32));
}

export function sealPrivateKey(privateJwk: string, authSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(authSecret), iv);
  const sealed = Buffer.concat([cipher.update(privateJwk, "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

/** The private JWK (JSON), or an error when it was not sealed under this AUTH_SECRET (or was altered). */
export function openPrivateKey(stored: string, authSecret: string): string {
  const [version, data] = stored.split(".");
  if (version !== VERSION || !data) throw new Error("oidc signing key: unknown storage format");
  const raw = Buffer.from(data, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(authSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
