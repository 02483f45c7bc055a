import { DEMO_IDS } from "../demo-ids";
import { env } from "../env";
import { checkOutboundUrl, SafeFetchError, type SafeFetchPolicy } from "../net/safe-fetch";
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from "../db/outbox";

export const MAX_ENDPOINTS_PER_SCHOOL = 20;
export const MAX_ENDPOINT_URL_LENGTH = 2048;
export const MAX_ENDPOINT_DESCRIPTION_LENGTH = 500;
export const ENDPOINT_NOT_FOUND = "Webhook endpoint not found";
export const TOO_MANY_ENDPOINTS = `A school can have at most ${MAX_ENDPOINTS_PER_SCHOOL} webhook endpoints`;
export const EVENTS_REQUIRED = `events must list at least one event type (${WEBHOOK_EVENT_TYPES.join(", ")}) or "*"`;
export const DESCRIPTION_TOO_LONG = `description must be at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters`;

/**
 * Outbound policy of one school's webhook deliveries: https to public addresses only, except
 * http:// on a loopback address for test suites (a switch lib/env.ts refuses outside tests) and,
 * with WEBHOOKS_LOCAL_RECEIVERS on the embedded demo database (lib/env.ts refuses it with
 * DATABASE_URL or on Vercel), for the demo school: a developer's receiver on their own machine.
 * Every other school, and every deployment, keeps the SSRF-safe rule (docs/security.md).
 */
export function webhookFetchPolicy(schoolId: string): SafeFetchPolicy {
  const e = env();
  const localDemo = e.WEBHOOKS_LOCAL_RECEIVERS && !e.DATABASE_URL && !e.VERCEL && schoolId === DEMO_IDS.school;
  return { allowLoopbackForTests: e.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS || localDemo };
}

/** The endpoint URL as stored, or the message explaining why it is refused. */
export function checkEndpointUrl(raw: string, schoolId: string): { url: string } | { error: string } {
  if (raw.length > MAX_ENDPOINT_URL_LENGTH) return { error: `url must be at most ${MAX_ENDPOINT_URL_LENGTH} characters` };
  try {
    const url = checkOutboundUrl(raw.trim(), webhookFetchPolicy(schoolId));
    if (url.hash) return { error: "url must not contain a fragment" };
    return { url: url.href };
  } catch (err) {
    if (err instanceof SafeFetchError) return { error: `url: ${err.message}` };
    throw err;
  }
}

/** The event types, deduplicated, or the message explaining why they are refused. */
export function checkEventTypes(raw: string[]): { events: string[] } | { error: string } {
  const events = [...new Set(raw.map((e) => e.trim()))];
  if (!events.length) return { error: EVENTS_REQUIRED };
  const unknown = events.filter((e) => e !== "*" && !isWebhookEventType(e));
  if (unknown.length) return { error: `Unknown event type ${unknown.slice(0, 3).join(", ")}; choose from ${WEBHOOK_EVENT_TYPES.join(", ")} or "*"` };
  return { events: events.includes("*") ? ["*"] : events };
}

export function checkDescription(raw: string | null | undefined): { description: string } | { error: string } {
  const description = (raw ?? "").trim();
  return description.length > MAX_ENDPOINT_DESCRIPTION_LENGTH ? { error: DESCRIPTION_TOO_LONG } : { description };
}
