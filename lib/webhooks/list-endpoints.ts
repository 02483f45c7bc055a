import { db } from "../db/client";
import type { WebhookEndpoint } from "../db/generated/client";

/** The school's endpoints, oldest first (at most MAX_ENDPOINTS_PER_SCHOOL). */
export function listWebhookEndpoints(options: { schoolId: string }): Promise<WebhookEndpoint[]> {
  return db().webhookEndpoint.findMany({ where: { schoolId: options.schoolId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
