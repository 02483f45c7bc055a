import { db } from "../db/client";
import { isUuid } from "../membership/ids";
import { failure, success, type Payload } from "../membership/records";
import { ENDPOINT_NOT_FOUND } from "./endpoint-input";

/** Deletes an endpoint with its deliveries and their attempts (events stay: they belong to the school). */
export async function deleteWebhookEndpoint(options: { schoolId: string; id: string }): Promise<Payload<{ id: string }>> {
  if (!isUuid(options.id)) return failure(ENDPOINT_NOT_FOUND);
  const { count } = await db().webhookEndpoint.deleteMany({ where: { id: options.id, schoolId: options.schoolId } });
  return count ? success({ id: options.id }) : failure(ENDPOINT_NOT_FOUND);
}
