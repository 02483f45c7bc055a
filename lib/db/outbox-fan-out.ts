/**
 * The outbox's one fan-out, as data-modifying CTEs to put in a statement's WITH list: the events of
 * the JSON array in parameter `rows` (outboxRows) become WebhookEvent rows (`outbox_events`), and
 * each gets one pending delivery per enabled endpoint of its school subscribed to its type
 * (`outbox_deliveries`). `now` is the parameter of the rows' timestamps; `when`, a condition that
 * must hold for anything to be written (the new-member statement writes its events only when it
 * created the member). recordEvents and lib/membership/subscribe-new-member.ts both use it.
 * A delivery is due at the earlier of `now` and the real time: a change made at a test clock's
 * future time (docs/decisions.md, "Test clock") is delivered at once, not when real time gets there.
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
  SELECT gen_random_uuid(), e."schoolId", e."id", w."id", 'pending', LEAST(${now}, clock_timestamp()), ${now}, ${now}
    FROM outbox_events e JOIN "WebhookEndpoint" w ON w."schoolId" = e."schoolId"
   WHERE w."disabledAt" IS NULL AND (e."type" = ANY(w."events") OR '*' = ANY(w."events"))
  RETURNING 1
)`;
}
