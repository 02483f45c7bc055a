import { generateApiKey, parseApiKey } from "../credentials/api-key";
import { ADMIN_OPERATIONS, isAdminOperation, type AdminOperation } from "../credentials/permissions";
import { db } from "../db/client";
import { forgetApiKeys } from "../credentials/api-key-cache";
import { isUuid } from "../core/ids";
import { recordAudit, type AuditActor } from "../db/audit";

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

export function parsePermissions(raw: string | undefined): AdminOperation[] {
  if (!raw || raw === "all") return [...ADMIN_OPERATIONS];
  if (raw === "none") return [];
  const names = raw.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isAdminOperation(n));
  if (unknown.length) {
    throw new ApiKeyCommandError(`unknown permission ${unknown.join(", ")}; choose from ${ADMIN_OPERATIONS.join(", ")}, or all / none`);
  }
  return [...new Set(names)] as AdminOperation[];
}

/** Creates a key for a school. The secret is returned once and only its hash is stored. */
export async function createApiKey(options: {
  school: string;
  name: string;
  permissions: AdminOperation[];
  enforceLimits: boolean;
  expiresAt?: Date | null;
  /** Who asks: written to the audit log with the key (lib/db/audit.ts); never the secret. */
  actor: AuditActor;
  now: Date;
}) {
  const school = await findSchool(options.school);
  const { key, prefix, secretHash } = generateApiKey();
  const row = await db().$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        schoolId: school.id,
        name: options.name,
        prefix,
        secretHash,
        permissions: options.permissions,
        enforceLimits: options.enforceLimits,
        expiresAt: options.expiresAt ?? null,
      },
    });
    const summary = { name: created.name, prefix, permissions: created.permissions, enforceLimits: created.enforceLimits, expiresAt: created.expiresAt };
    await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: school.id, action: "api_key.create", target: { type: "api_key", id: created.id }, summary } });
    return created;
  });
  return { key, id: row.id, prefix, school: school.subdomain, permissions: row.permissions };
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

/** Revokes a key by id or prefix; it is refused from the next request on. */
export async function revokeApiKey(options: { ref: string; now: Date; actor: AuditActor }) {
  // Accept the id, the prefix, or the whole key (its prefix part is used).
  const ref = parseApiKey(options.ref)?.prefix ?? options.ref;
  const where = isUuid(ref) ? { id: ref } : { prefix: ref };
  const row = await db().apiKey.findUnique({ where });
  if (!row) throw new ApiKeyCommandError(`no API key with id or prefix "${ref}"`);
  if (row.revokedAt) return { id: row.id, prefix: row.prefix, revokedAt: row.revokedAt, alreadyRevoked: true };
  const updated = await db().$transaction(async (tx) => {
    const revoked = await tx.apiKey.update({ where: { id: row.id }, data: { revokedAt: options.now } });
    const summary = { name: row.name, prefix: row.prefix, revokedAt: { from: null, to: options.now } };
    await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: row.schoolId, action: "api_key.revoke", target: { type: "api_key", id: row.id }, summary } });
    return revoked;
  });
  // Every instance drops it within the cache's bound (the trigger bumps CredentialVersion); this one at once.
  forgetApiKeys();
  return { id: updated.id, prefix: updated.prefix, revokedAt: updated.revokedAt!, alreadyRevoked: false };
}
