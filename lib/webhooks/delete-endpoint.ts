import { isUuid } from "../core/ids";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { ENDPOINT_NOT_FOUND } from "./endpoint-input";

/** Deletes an endpoint with its deliveries and their attempts (events stay: they belong to the school). */
export async function deleteWebhookEndpoint(options: { schoolId: string; id: string; dryRun?: boolean }): Promise<Payload<{ id: string }>> {
  if (!isUuid(options.id)) return failure(ENDPOINT_NOT_FOUND);
  return writeTransaction({ dryRun: options.dryRun }, async (tx) => {
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: options.id, schoolId: options.schoolId } });
    return count ? success({ id: options.id }) : failure<{ id: string }>(ENDPOINT_NOT_FOUND);
  });
}
