import { randomBytes } from "node:crypto";
import { seal, unseal } from "../credentials/sealed";

// Webhook signing secrets. Standard Webhooks signs with HMAC-SHA256 under the secret itself, so the
// server must be able to read it back: it cannot be stored as a one-way hash like API keys. It is
// stored encrypted (AES-256-GCM) under a key derived from AUTH_SECRET, so a copy of the database
// alone does not let anyone forge deliveries (docs/security.md).

const PURPOSE = "schoolhouse webhook signing secrets v1";

/** A new secret in the Standard Webhooks format: whsec_ + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export const encryptWebhookSecret = (secret: string, authSecret: string): string => seal(secret, { authSecret, purpose: PURPOSE });

/** The secret, or an error when the ciphertext was not made under this AUTH_SECRET (or was altered). */
export const decryptWebhookSecret = (stored: string, authSecret: string): string => unseal(stored, { authSecret, purpose: PURPOSE });
