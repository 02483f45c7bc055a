import { db } from "../db/client";
import type { WebhookEndpoint } from "../db/generated/client";
import { isUuid } from "../membership/ids";

/** One of the school's endpoints; null for unknown ids and other schools' endpoints. */
export async function findWebhookEndpoint(options: { schoolId: string; id: string }): Promise<WebhookEndpoint | null> {
  if (!isUuid(options.id)) return null;
  return db().webhookEndpoint.findFirst({ where: { id: options.id, schoolId: options.schoolId } });
}
