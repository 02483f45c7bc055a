import { randomUUID } from "node:crypto";
import { toUnixSeconds } from "../clock";
import type { Prisma } from "./generated/client";

type Tx = Prisma.TransactionClient;

/** The event catalogue (docs/decisions.md, "Webhooks (issue 14)"). */
export const WEBHOOK_EVENT_TYPES = [
  "subscription.created",
  "subscription.updated",
  "subscription.canceling",
  "subscription.canceled",
  "subscription.expired",
  "enrollment.created",
  "member.created",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

export interface OutboxEvent {
  schoolId: string;
  type: WebhookEventType;
  /** The subscription, enrollment or user the event is about. */
  subjectId: string;
  /** The object in the Admin API's wire shape (lib/membership/presenter.ts). */
  data: unknown;
}

/**
 * The outbox's one fan-out, as data-modifying CTEs to put in a statement's WITH list: the events of
 * the JSON array in parameter `rows` (outboxRows) become WebhookEvent rows (`outbox_events`), and
 * each gets one pending delivery per enabled endpoint of its school subscribed to its type
 * (`outbox_deliveries`). `now` is the parameter of the rows' timestamps; `when`, a condition that
 * must hold for anything to be written (the new-member statement writes its events only when it
 * created the member). recordEvents and lib/membership/subscribe-new-member.ts both use it.
 */
export function outboxFanOut(params: { rows: string; now: string; when?: string }): string {
  const { rows, now, when } = params;
  return `outbox_input AS (
  SELECT x.* FROM jsonb_to_recordset(${rows}::jsonb) AS x("id" uuid, "schoolId" uuid, "type" text, "subjectId" uuid, "payload" text)${when ? `
   WHERE ${when}` : ""}
), outbox_events AS (
  INSERT INTO "WebhookEvent" ("id", "schoolId", "type", "subjectId", "payload", "createdAt")
  SELECT "id", "schoolId", "type", "subjectId", "payload", ${now} FROM outbox_input
  RETURNING "id", "schoolId", "type"
), outbox_deliveries AS (
  INSERT INTO "WebhookDelivery" ("id", "schoolId", "eventId", "endpointId", "status", "nextAttemptAt", "createdAt", "updatedAt")
  SELECT gen_random_uuid(), e."schoolId", e."id", w."id", 'pending', ${now}, ${now}, ${now}
    FROM outbox_events e JOIN "WebhookEndpoint" w ON w."schoolId" = e."schoolId"
   WHERE w."disabledAt" IS NULL AND (e."type" = ANY(w."events") OR '*' = ANY(w."events"))
  RETURNING 1
)`;
}

// Data-modifying CTEs run whether or not the statement reads them.
const RECORD_EVENTS_SQL = `WITH ${outboxFanOut({ rows: "$1", now: "$2" })} SELECT 1`;

/**
 * Writes events to the outbox inside the caller's transaction, and fans each out to the school's
 * enabled endpoints that subscribe to its type, in ONE statement whatever the number of events:
 * a rolled-back change leaves neither events nor deliveries behind, a committed one both.
 */
export async function recordEvents(tx: Tx, options: { events: OutboxEvent[]; now: Date }): Promise<void> {
  const { events, now } = options;
  if (!events.length) return;
  await tx.$executeRawUnsafe(RECORD_EVENTS_SQL, JSON.stringify(outboxRows(events, now)), now);
}

/** The outbox rows of events (ids and payloads): the `rows` parameter of outboxFanOut. */
export function outboxRows(events: OutboxEvent[], now: Date) {
  return events.map((e) => {
    const id = randomUUID();
    const payload = JSON.stringify({ type: e.type, id, timestamp: toUnixSeconds(now), data: e.data });
    return { id, schoolId: e.schoolId, type: e.type, subjectId: e.subjectId, payload };
  });
}

export const recordEvent = (tx: Tx, options: { event: OutboxEvent; now: Date }) =>
  recordEvents(tx, { events: [options.event], now: options.now });
