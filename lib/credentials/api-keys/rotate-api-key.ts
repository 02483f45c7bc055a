import { isUuid } from "../../core/ids";
import { recordAudit, type AuditActor } from "../../db/audit";
import { failure, success, type Payload, writeTransaction } from "../../db/write-transaction";
import { forgetApiKeys } from "../api-key-cache";
import { generateApiKey } from "../api-key";
import type { CreatedApiKey } from "./create-api-key";
import { API_KEY_NOT_FOUND, keyStatus, presentKey } from "./key-input";

export const KEY_NOT_ACTIVE = "Only an active key can be rotated: create a new one";

/**
 * Replaces a key's secret: a new key with the same name, permissions, limits and expiry, and the
 * old one revoked, in one transaction (there is no overlap: whoever holds the old secret switches
 * now, which is what rotating a leaked key needs). The new key is returned once. Only the first of
 * two rotations of the same key at once succeeds (the old row's revocation is conditional).
 */
export async function rotateApiKey(options: { schoolId: string; input: { id: string }; now: Date; actor: AuditActor }): Promise<Payload<CreatedApiKey>> {
  const { schoolId, input, now, actor } = options;
  if (!isUuid(input.id)) return failure(API_KEY_NOT_FOUND);
  const { key, prefix, secretHash } = generateApiKey();
  const payload = await writeTransaction({}, async (tx) => {
    const old = await tx.apiKey.findFirst({ where: { id: input.id, schoolId } });
    if (!old) return failure<CreatedApiKey>(API_KEY_NOT_FOUND);
    if (keyStatus(old, now) !== "active") return failure<CreatedApiKey>(KEY_NOT_ACTIVE);
    const { count } = await tx.apiKey.updateMany({ where: { id: old.id, revokedAt: null }, data: { revokedAt: now } });
    if (!count) return failure<CreatedApiKey>(KEY_NOT_ACTIVE);
    const row = await tx.apiKey.create({
      data: {
        schoolId,
        name: old.name,
        prefix,
        secretHash,
        permissions: old.permissions,
        enforceLimits: old.enforceLimits,
        expiresAt: old.expiresAt,
        createdAt: now,
      },
    });
    const summary = { name: row.name, previousPrefix: old.prefix, prefix };
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "api_key.rotate", target: { type: "api_key", id: row.id }, summary } });
    return success({ key, apiKey: presentKey(row, now) });
  });
  forgetApiKeys();
  return payload;
}
