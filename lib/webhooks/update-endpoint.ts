import { db } from "../db/client";
import type { WebhookEndpoint } from "../db/generated/client";
import { failure, success, type Payload } from "../membership/records";
import { ENDPOINT_NOT_FOUND, checkDescription, checkEndpointUrl, checkEventTypes } from "./endpoint-input";
import { findWebhookEndpoint } from "./find-endpoint";

export interface UpdateEndpointInput {
  id: string;
  url?: string | null;
  events?: string[] | null;
  description?: string | null;
  /** false disables the endpoint (reason "Disabled by the school"); true re-enables it and clears the failure record. */
  enabled?: boolean | null;
}

/** Changes an endpoint; fields left out (or null) keep their value. Re-enabling resumes its pending deliveries. */
export async function updateWebhookEndpoint(options: { schoolId: string; input: UpdateEndpointInput; now: Date }): Promise<Payload<WebhookEndpoint>> {
  const { schoolId, input, now } = options;
  const existing = await findWebhookEndpoint({ schoolId, id: input.id });
  if (!existing) return failure(ENDPOINT_NOT_FOUND);
  const data: Partial<WebhookEndpoint> = { updatedAt: now };
  if (input.url !== null && input.url !== undefined) {
    const url = checkEndpointUrl(input.url);
    if ("error" in url) return failure(url.error);
    data.url = url.url;
  }
  if (input.events !== null && input.events !== undefined) {
    const events = checkEventTypes(input.events);
    if ("error" in events) return failure(events.error);
    data.events = events.events;
  }
  if (input.description !== null && input.description !== undefined) {
    const description = checkDescription(input.description);
    if ("error" in description) return failure(description.error);
    data.description = description.description;
  }
  if (input.enabled === true && existing.disabledAt) Object.assign(data, { disabledAt: null, disabledReason: null, failingSince: null });
  if (input.enabled === false && !existing.disabledAt) Object.assign(data, { disabledAt: now, disabledReason: "Disabled by the school" });
  // updateMany scoped to the school: an endpoint deleted meanwhile is "not found", not a crash.
  const { count } = await db().webhookEndpoint.updateMany({ where: { id: existing.id, schoolId }, data });
  if (!count) return failure(ENDPOINT_NOT_FOUND);
  return success(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: existing.id } }));
}
