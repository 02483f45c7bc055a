// The command line's side of API keys (npm run apikey): schools named by subdomain or id, keys by
// id, prefix or the whole key, failures as ApiKeyCommandError. The verbs themselves are
// lib/credentials/api-keys/ (the staff console calls them too).
import { parseApiKey } from "../credentials/api-key";
import { ADMIN_OPERATIONS, ALL_PERMISSIONS, isAdminOperation, type StoredPermission } from "../credentials/permissions";
import { createApiKey as createKey } from "../credentials/api-keys/create-api-key";
import { revokeApiKey as revokeKey } from "../credentials/api-keys/revoke-api-key";
import { rotateApiKey as rotateKey } from "../credentials/api-keys/rotate-api-key";
import { db } from "../db/client";
import { now as clockNow } from "../clock";
import { isUuid } from "../core/ids";
import type { AuditActor } from "../db/audit";

/** A problem with an `npm run apikey` command; printed as one line. */
export class ApiKeyCommandError extends Error {
  override name = "ApiKeyCommandError";
}

async function findSchool(ref: string) {
  const school = isUuid(ref)
    ? await db().school.findUnique({ where: { id: ref } })
    : await db().school.findUnique({ where: { subdomain: ref } });
  if (!school) throw new ApiKeyCommandError(`no school with id or subdomain "${ref}"`);
  return school;
}

/** `--permissions`: all (the default: every operation, including ones added later), none, or a list. */
export function parsePermissions(raw: string | undefined): StoredPermission[] {
  if (!raw || raw === "all") return [ALL_PERMISSIONS];
  if (raw === "none") return [];
  const names = raw.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isAdminOperation(n));
  if (unknown.length) {
    throw new ApiKeyCommandError(`unknown permission ${unknown.join(", ")}; choose from ${ADMIN_OPERATIONS.join(", ")}, or all / none`);
  }
  return [...new Set(names)] as StoredPermission[];
}

/** Creates a key for a school. The secret is returned once and only its hash is stored. */
export async function createApiKey(options: {
  school: string;
  name: string;
  permissions: StoredPermission[];
  enforceLimits: boolean;
  expiresAt?: Date | null;
  now?: Date;
  /** Who asks: written to the audit log with the key (lib/db/audit.ts); never the secret. */
  actor: AuditActor;
}) {
  const school = await findSchool(options.school);
  const created = await createKey({
    actor: options.actor,
    schoolId: school.id,
    input: { name: options.name, permissions: options.permissions, enforceLimits: options.enforceLimits, expiresAt: options.expiresAt },
    now: options.now ?? clockNow(),
  });
  if (!created.record) throw new ApiKeyCommandError(created.errors[0]!);
  const { key, apiKey } = created.record;
  return { key, id: apiKey.id, prefix: apiKey.prefix, school: school.subdomain, permissions: apiKey.permissions };
}

export async function listApiKeys(options: { school?: string }) {
  const where = options.school ? { schoolId: (await findSchool(options.school)).id } : {};
  return db().apiKey.findMany({
    where,
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      name: true,
      prefix: true,
      permissions: true,
      enforceLimits: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      school: { select: { subdomain: true } },
    },
  });
}

/** The key a command names by id, prefix or the whole key (its prefix part is used). */
async function findKey(raw: string) {
  const ref = parseApiKey(raw)?.prefix ?? raw;
  const row = await db().apiKey.findUnique({ where: isUuid(ref) ? { id: ref } : { prefix: ref } });
  if (!row) throw new ApiKeyCommandError(`no API key with id or prefix "${ref}"`);
  return row;
}

/** Revokes a key by id or prefix; it is refused from the next request on. */
export async function revokeApiKey(options: { ref: string; now: Date; actor: AuditActor }) {
  const row = await findKey(options.ref);
  if (row.revokedAt) return { id: row.id, prefix: row.prefix, revokedAt: row.revokedAt, alreadyRevoked: true };
  const revoked = await revokeKey({ schoolId: row.schoolId, input: { id: row.id }, now: options.now, actor: options.actor });
  if (!revoked.record) throw new ApiKeyCommandError(revoked.errors[0]!);
  return { id: row.id, prefix: row.prefix, revokedAt: revoked.record.revokedAt!, alreadyRevoked: false };
}

/** Rotates a key: a new secret under the same name and permissions, the old key revoked. */
export async function rotateApiKey(options: { ref: string; now: Date; actor: AuditActor }) {
  const row = await findKey(options.ref);
  const rotated = await rotateKey({ schoolId: row.schoolId, input: { id: row.id }, now: options.now, actor: options.actor });
  if (!rotated.record) throw new ApiKeyCommandError(rotated.errors[0]!);
  return { key: rotated.record.key, id: rotated.record.apiKey.id, prefix: rotated.record.apiKey.prefix, previousPrefix: row.prefix };
}
