import { isUuid } from "../core/ids";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { recordAudit, type AuditActor } from "../db/audit";
import { ENDPOINT_NOT_FOUND } from "./endpoint-input";
import type { DeliveryRecord } from "./presenter";

export const EVENT_NOT_FOUND = "Webhook event not found";
export const NO_ENDPOINT_FOR_EVENT = "No enabled endpoint receives this event type";

/**
 * Queues an event again, now: to one endpoint (even one created after the event, or one whose event
 * filter excludes it: the school asked explicitly), or to every enabled endpoint of the school that
 * receives its type. A delivery in progress is queued again after it finishes; the webhook-id stays
 * the event's id, so receivers see a duplicate, never a new event.
 */
export async function redeliverWebhookEvent(options: {
  schoolId: string;
  input: { eventId: string; endpointId?: string | null };
  now: Date;
  /** Checked and queued, then rolled back: shows which deliveries would be queued. */
  dryRun?: boolean;
  /** Who asks: written to the audit log with the change (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<DeliveryRecord[]>> {
  const { schoolId, input, now, dryRun, actor } = options;
  if (!isUuid(input.eventId)) return failure(EVENT_NOT_FOUND);
  if (input.endpointId && !isUuid(input.endpointId)) return failure(ENDPOINT_NOT_FOUND);
  return writeTransaction({ dryRun }, async (tx) => {
    const event = await tx.webhookEvent.findFirst({ where: { id: input.eventId, schoolId } });
    if (!event) return failure<DeliveryRecord[]>(EVENT_NOT_FOUND);
    const endpoints = input.endpointId
      ? await tx.webhookEndpoint.findMany({ where: { id: input.endpointId, schoolId } })
      : await tx.webhookEndpoint.findMany({ where: { schoolId, disabledAt: null, OR: [{ events: { has: event.type } }, { events: { has: "*" } }] } });
    if (!endpoints.length) return failure<DeliveryRecord[]>(input.endpointId ? ENDPOINT_NOT_FOUND : NO_ENDPOINT_FOR_EVENT);
    const ids: string[] = [];
    for (const endpoint of endpoints) {
      const d = await tx.webhookDelivery.upsert({
        where: { eventId_endpointId: { eventId: event.id, endpointId: endpoint.id } },
        create: { schoolId, eventId: event.id, endpointId: endpoint.id, status: "pending", nextAttemptAt: now, createdAt: now, updatedAt: now },
        update: { status: "pending", attemptCount: 0, nextAttemptAt: now, updatedAt: now },
      });
      ids.push(d.id);
    }
    const summary = { eventType: event.type, endpointIds: endpoints.map((e) => e.id) };
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "webhook_event.redeliver", target: { type: "webhook_event", id: event.id }, summary } });
    const deliveries = await tx.webhookDelivery.findMany({
      where: { id: { in: ids } },
      include: { event: true, attempts: { orderBy: { attemptedAt: "asc" }, take: 20 } },
    });
    return success(deliveries);
  });
}
