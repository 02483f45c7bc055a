import { recordAudit, type AuditActor } from "../../db/audit";
import { failure, success, type Payload, writeTransaction } from "../../db/write-transaction";
import { forgetApiKeys } from "../api-key-cache";
import { generateApiKey } from "../api-key";
import { checkExpiry, checkKeyName, checkPermissionList, presentKey, type ApiKeyRecord } from "./key-input";

export interface CreateApiKeyInput {
  name: string;
  /** Operation names (lib/credentials/permissions.ts); an empty list makes a key that can only authenticate. */
  permissions: readonly string[];
  expiresAt?: Date | null;
  enforceLimits?: boolean;
}

/** A key just made: `key` is the only time the secret exists outside the caller; the row stores its SHA-256. */
export interface CreatedApiKey {
  key: string;
  apiKey: ApiKeyRecord;
}

/** Creates an Admin API key of a school. The secret is generated here and returned once. */
export async function createApiKey(options: { schoolId: string; input: CreateApiKeyInput; now: Date; actor: AuditActor }): Promise<Payload<CreatedApiKey>> {
  const { schoolId, input, now, actor } = options;
  const name = checkKeyName(input.name);
  if ("error" in name) return failure(name.error);
  const permissions = checkPermissionList(input.permissions);
  if ("error" in permissions) return failure(permissions.error);
  const expiry = checkExpiry(input.expiresAt, now);
  if ("error" in expiry) return failure(expiry.error);
  const { key, prefix, secretHash } = generateApiKey();
  const payload = await writeTransaction({}, async (tx) => {
    const row = await tx.apiKey.create({
      data: {
        schoolId,
        name: name.name,
        prefix,
        secretHash,
        permissions: permissions.permissions,
        enforceLimits: input.enforceLimits ?? false,
        expiresAt: expiry.expiresAt,
        createdAt: now,
      },
    });
    const summary = { name: row.name, prefix, permissions: row.permissions, enforceLimits: row.enforceLimits, expiresAt: row.expiresAt };
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "api_key.create", target: { type: "api_key", id: row.id }, summary } });
    return success({ key, apiKey: presentKey(row, now) });
  });
  // A prefix looked up before it existed may be cached as absent in this process.
  forgetApiKeys();
  return payload;
}
