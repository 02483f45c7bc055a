import { isUuid } from "../../core/ids";
import { failure, success, type Payload, writeTransaction } from "../../db/write-transaction";
import { forgetApiKeys } from "../api-key-cache";
import { API_KEY_NOT_FOUND, presentKey, type ApiKeyRecord } from "./key-input";

/**
 * Revokes a school's key: refused from the next request (this process at once, every other one
 * within the credential cache's bound: the CredentialVersion trigger). Revoking a revoked key is
 * not an error and changes nothing (a double submit, or two staff at once).
 */
export async function revokeApiKey(options: { schoolId: string; input: { id: string }; now: Date }): Promise<Payload<ApiKeyRecord>> {
  const { schoolId, input, now } = options;
  if (!isUuid(input.id)) return failure(API_KEY_NOT_FOUND);
  const payload = await writeTransaction({}, async (tx) => {
    await tx.apiKey.updateMany({ where: { id: input.id, schoolId, revokedAt: null }, data: { revokedAt: now } });
    const row = await tx.apiKey.findFirst({ where: { id: input.id, schoolId } });
    return row ? success(presentKey(row, now)) : failure<ApiKeyRecord>(API_KEY_NOT_FOUND);
  });
  forgetApiKeys();
  return payload;
}
