import { ALL_PERMISSIONS, isAdminOperation, type StoredPermission } from "../permissions";
import type { ApiKey } from "../../db/generated/client";

// The rules of a key's name, permissions and expiry, shared by the console, the CLI and tests:
// each check returns the value or the one message shown to the person who typed it.

export const MAX_KEY_NAME_LENGTH = 100;
export const API_KEY_NOT_FOUND = "API key not found";
export const KEY_NAME_INVALID = `The name must be 1 to ${MAX_KEY_NAME_LENGTH} characters`;
export const EXPIRY_NOT_FUTURE = "The expiry must be in the future";
/** A key lives at most this long: longer-lived secrets are the ones nobody remembers to rotate. */
export const MAX_KEY_LIFETIME_MS = 5 * 366 * 24 * 3600 * 1000;
export const EXPIRY_TOO_FAR = "The expiry must be within 5 years";

export function checkKeyName(raw: string): { name: string } | { error: string } {
  const name = raw.trim();
  // Control characters would corrupt the CLI's one-line listing and the console's table.
  if (!name || name.length > MAX_KEY_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) return { error: KEY_NAME_INVALID };
  return { name };
}

/**
 * The permissions to store: ALL_PERMISSIONS alone when it was chosen (every operation, now and
 * later; ticking some too changes nothing), else the operations named, each once.
 */
export function checkPermissionList(raw: readonly string[]): { permissions: StoredPermission[] } | { error: string } {
  const unknown = raw.filter((p) => p !== ALL_PERMISSIONS && !isAdminOperation(p));
  if (unknown.length) return { error: `Unknown permission ${unknown.slice(0, 3).map((p) => JSON.stringify(p.slice(0, 60))).join(", ")}` };
  if (raw.includes(ALL_PERMISSIONS)) return { permissions: [ALL_PERMISSIONS] };
  return { permissions: [...new Set(raw)] as StoredPermission[] };
}

export function checkExpiry(expiresAt: Date | null | undefined, now: Date): { expiresAt: Date | null } | { error: string } {
  if (!expiresAt) return { expiresAt: null };
  if (Number.isNaN(expiresAt.getTime()) || expiresAt <= now) return { error: EXPIRY_NOT_FUTURE };
  if (expiresAt.getTime() - now.getTime() > MAX_KEY_LIFETIME_MS) return { error: EXPIRY_TOO_FAR };
  return { expiresAt };
}

export type ApiKeyStatus = "active" | "expired" | "revoked";

/** A key as staff see it: never its hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  enforceLimits: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  status: ApiKeyStatus;
}

/** The status verification would give the key at `now` (lib/credentials/verify-api-key.ts: revoked before expired). */
export function keyStatus(key: Pick<ApiKey, "revokedAt" | "expiresAt">, now: Date): ApiKeyStatus {
  if (key.revokedAt && key.revokedAt <= now) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}

export function presentKey(row: ApiKey, now: Date): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions,
    enforceLimits: row.enforceLimits,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    status: keyStatus(row, now),
  };
}
