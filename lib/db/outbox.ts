import { toUnixSeconds } from "../clock";
import type { Prisma } from "./generated/client";
import { outboxFanOut } from "./outbox-fan-out";
import { timeOrderedId } from "./time-ordered-id";

type Tx = Prisma.TransactionClient;

/** The event catalogue (docs/decisions.md, "Event catalogue"). */
export const WEBHOOK_EVENT_TYPES = [
  "subscription.created",
  "subscription.updated",
  "subscription.canceling",
  "subscription.canceled",
  "subscription.expired",
  "enrollment.created",
  "member.created",
  // Billing (docs/decisions.md, "Billing"): lib/billing writes these with the change they report.
  "payment.succeeded",
  "payment.failed",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.activated",
  "subscription.incomplete_expired",
  "subscription.paused",
  "subscription.resumed",
  "payment.refunded",
  "subscription.plan_changed",
  "subscription.plan_change_scheduled",
  // Sent only when the school asks (the console's "send test event": lib/webhooks/send-test-event.ts),
  // to the one endpoint named, whatever its event filter.
  "webhook.ping",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

export interface OutboxEvent {
  schoolId: string;
  type: WebhookEventType;
  /** The subscription, enrollment, user or payment the event is about. */
  subjectId: string;
  /** The object in the Admin API's wire shape (lib/membership/presenter.ts). */
  data: unknown;
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

/** The outbox rows of events (ids and payloads), as recordEvents' statement and createSubscription's new-member statement take them. */
export function outboxRows(events: OutboxEvent[], now: Date) {
  return events.map((e) => {
    const id = timeOrderedId();
    const payload = JSON.stringify({ type: e.type, id, timestamp: toUnixSeconds(now), data: e.data });
    return { id, schoolId: e.schoolId, type: e.type, subjectId: e.subjectId, payload };
  });
}

export const recordEvent = (tx: Tx, options: { event: OutboxEvent; now: Date }) =>
  recordEvents(tx, { events: [options.event], now: options.now });
