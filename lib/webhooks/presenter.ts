import { toUnixSeconds } from "../clock";
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent } from "../db/generated/client";

// Records → the Admin API's wire shapes (Unix seconds). The secret is never part of them: it is
// returned once, by createWebhookEndpoint and rotateWebhookSecret, beside the endpoint.

const ts = toUnixSeconds;

export function presentEndpoint(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.disabledAt === null,
    disabledAt: ts(e.disabledAt),
    disabledReason: e.disabledReason,
    failingSince: ts(e.failingSince),
    previousSecretExpiresAt: ts(e.previousSecretExpiresAt),
    createdAt: ts(e.createdAt)!,
    updatedAt: ts(e.updatedAt)!,
  };
}

export type DeliveryRecord = WebhookDelivery & { event: WebhookEvent; attempts: WebhookAttempt[] };

export function presentDelivery(d: DeliveryRecord) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.event.type,
    payload: d.event.payload,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: d.status === "pending" ? ts(d.nextAttemptAt) : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: ts(d.createdAt)!,
    updatedAt: ts(d.updatedAt)!,
    attempts: d.attempts.map((a) => ({
      attemptedAt: ts(a.attemptedAt)!,
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
      succeeded: a.succeeded,
      responseExcerpt: a.responseExcerpt,
    })),
  };
}

export type EndpointWire = ReturnType<typeof presentEndpoint>;
export type DeliveryWire = ReturnType<typeof presentDelivery>;
