import type { WebhookEndpoint } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { changedFields, recordAudit, type AuditActor } from "../db/audit";
import { ENDPOINT_NOT_FOUND, checkDescription, checkEndpointUrl, checkEventTypes } from "./endpoint-input";

export interface UpdateEndpointInput {
  id: string;
  url?: string | null;
  events?: string[] | null;
  description?: string | null;
  /** false disables the endpoint (reason "Disabled by the school"); true re-enables it and clears the failure record. */
  enabled?: boolean | null;
}

/**
 * Changes an endpoint; fields left out (or null) keep their value. Re-enabling resumes its pending
 * deliveries. dryRun: checked and written, then rolled back.
 */
export async function updateWebhookEndpoint(options: {
  schoolId: string;
  input: UpdateEndpointInput;
  now: Date;
  dryRun?: boolean;
  /** Who asks: written to the audit log with the change (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<WebhookEndpoint>> {
  const { schoolId, input, now, dryRun, actor } = options;
  if (!isUuid(input.id)) return failure(ENDPOINT_NOT_FOUND);
  const data: Partial<WebhookEndpoint> = { updatedAt: now };
  if (input.url !== null && input.url !== undefined) {
    const url = checkEndpointUrl(input.url, schoolId);
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
  return writeTransaction({ dryRun }, async (tx) => {
    const [existing] = await tx.$queryRaw<Pick<WebhookEndpoint, "disabledAt" | "url" | "events" | "description" | "disabledReason">[]>`
      SELECT "disabledAt", "url", "events", "description", "disabledReason" FROM "WebhookEndpoint" WHERE "id" = ${input.id}::uuid AND "schoolId" = ${schoolId}::uuid FOR UPDATE`;
    if (!existing) return failure<WebhookEndpoint>(ENDPOINT_NOT_FOUND);
    if (input.enabled === true && existing.disabledAt) Object.assign(data, { disabledAt: null, disabledReason: null, failingSince: null });
    if (input.enabled === false && !existing.disabledAt) Object.assign(data, { disabledAt: now, disabledReason: "Disabled by the school" });
    const updated = await tx.webhookEndpoint.update({ where: { id: input.id }, data });
    const summary = changedFields(existing, updated, ["url", "events", "description", "disabledAt", "disabledReason"]);
    if (Object.keys(summary).length) {
      await recordAudit(tx, { actor, now, entry: { schoolId, action: "webhook_endpoint.update", target: { type: "webhook_endpoint", id: updated.id }, summary } });
    }
    return success(updated);
  });
}
