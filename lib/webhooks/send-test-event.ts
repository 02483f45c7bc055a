import { randomUUID } from "node:crypto";
import { toUnixSeconds } from "../clock";
import { isUuid } from "../core/ids";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { ENDPOINT_NOT_FOUND } from "./endpoint-input";
import { presentEndpoint, type DeliveryRecord } from "./presenter";

export const PING_EVENT_TYPE = "webhook.ping";
export const ENDPOINT_DISABLED = "The endpoint is disabled: enable it to send it a test event";

/**
 * "Send test event": a `webhook.ping` event (its data is the endpoint as the Admin API presents it)
 * and one delivery of it to this endpoint only, whatever events the endpoint lists, due now. It goes
 * through the outbox like any event (signed, retried, logged with its attempts), so a test shows what
 * real deliveries will do. A disabled endpoint is refused rather than queued behind its pause.
 */
export async function sendTestWebhookEvent(options: { schoolId: string; input: { endpointId: string }; now: Date }): Promise<Payload<DeliveryRecord>> {
  const { schoolId, input, now } = options;
  if (!isUuid(input.endpointId)) return failure(ENDPOINT_NOT_FOUND);
  return writeTransaction({}, async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: input.endpointId, schoolId } });
    if (!endpoint) return failure<DeliveryRecord>(ENDPOINT_NOT_FOUND);
    if (endpoint.disabledAt) return failure<DeliveryRecord>(ENDPOINT_DISABLED);
    const id = randomUUID();
    const payload = JSON.stringify({ type: PING_EVENT_TYPE, id, timestamp: toUnixSeconds(now), data: presentEndpoint(endpoint) });
    await tx.webhookEvent.create({ data: { id, schoolId, type: PING_EVENT_TYPE, subjectId: endpoint.id, payload, createdAt: now } });
    const delivery = await tx.webhookDelivery.create({
      data: { schoolId, eventId: id, endpointId: endpoint.id, status: "pending", nextAttemptAt: now, createdAt: now, updatedAt: now },
      include: { event: true, attempts: true },
    });
    return success(delivery);
  });
}
