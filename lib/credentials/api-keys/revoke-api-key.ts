import { isUuid } from "../../core/ids";
import { recordAudit, type AuditActor } from "../../db/audit";
import { failure, success, type Payload, writeTransaction } from "../../db/write-transaction";
import { forgetApiKeys } from "../api-key-cache";
import { API_KEY_NOT_FOUND, presentKey, type ApiKeyRecord } from "./key-input";

/**
 * Revokes a school's key: refused from the next request (this process at once, every other one
 * within the credential cache's bound: the CredentialVersion trigger). Revoking a revoked key is
 * not an error and changes nothing (a double submit, or two staff at once).
 */
export async function revokeApiKey(options: { schoolId: string; input: { id: string }; now: Date; actor: AuditActor }): Promise<Payload<ApiKeyRecord>> {
  const { schoolId, input, now, actor } = options;
  if (!isUuid(input.id)) return failure(API_KEY_NOT_FOUND);
  const payload = await writeTransaction({}, async (tx) => {
    const { count } = await tx.apiKey.updateMany({ where: { id: input.id, schoolId, revokedAt: null }, data: { revokedAt: now } });
    const row = await tx.apiKey.findFirst({ where: { id: input.id, schoolId } });
    // Only the revocation that happened is audited: revoking again changes nothing.
    if (row && count) {
      const summary = { name: row.name, prefix: row.prefix, revokedAt: { from: null, to: now } };
      await recordAudit(tx, { actor, now, entry: { schoolId, action: "api_key.revoke", target: { type: "api_key", id: row.id }, summary } });
    }
    return row ? success(presentKey(row, now)) : failure<ApiKeyRecord>(API_KEY_NOT_FOUND);
  });
  forgetApiKeys();
  return payload;
}
