import { randomBytes } from "node:crypto";
import { hashSecret, safeEqual } from "./secret";

// Admin API keys look like `sh_<prefix>_<secret>`: the prefix (public, unique) finds the row,
// the whole key is compared against the stored hash in constant time.
const KEY_PATTERN = /^sh_([a-z0-9]{8,32})_([A-Za-z0-9_-]{20,128})$/;

export interface ParsedApiKey {
  prefix: string;
  secret: string;
}

export function parseApiKey(raw: string | null | undefined): ParsedApiKey | null {
  const m = raw ? KEY_PATTERN.exec(raw.trim()) : null;
  return m ? { prefix: m[1]!, secret: m[2]! } : null;
}

export function generateApiKey(): { key: string; prefix: string; secretHash: string } {
  const prefix = randomBytes(6).toString("hex");
  const key = `sh_${prefix}_${randomBytes(24).toString("base64url")}`;
  return { key, prefix, secretHash: hashSecret(key) };
}

export function apiKeyHash(key: string): string {
  return hashSecret(key.trim());
}

export function apiKeyMatches(key: string, secretHash: string): boolean {
  return safeEqual(apiKeyHash(key), secretHash);
}
