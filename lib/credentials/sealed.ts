import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Secrets the server must read back (webhook signing secrets, OpenID Connect private keys): sealed
// with AES-256-GCM under a key derived from AUTH_SECRET by HKDF with a label per purpose, so a copy
// of the database alone reveals none of them and no two purposes share a key (docs/security.md).

const VERSION = "v1";

function key(authSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, "", purpose, 32));
}

/** `v1.<base64url(iv | tag | ciphertext)>`. */
export function seal(plain: string, options: { authSecret: string; purpose: string }): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(options.authSecret, options.purpose), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

/** The plain text, or an error when it was not sealed under this AUTH_SECRET and purpose (or was altered). */
export function unseal(stored: string, options: { authSecret: string; purpose: string }): string {
  const [version, data] = stored.split(".");
  if (version !== VERSION || !data) throw new Error(`${options.purpose}: unknown storage format`);
  const raw = Buffer.from(data, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(options.authSecret, options.purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
