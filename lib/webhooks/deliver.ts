import { authSecret } from "../auth/auth-secret";
import { db } from "../db/client";
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from "../db/generated/client";
import { safeRequest, SafeFetchError } from "../net/safe-fetch";
import { webhookFetchPolicy } from "./endpoint-input";
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_MS, LEASE_MS, parseRetryAfter, retryDelayMs } from "./schedule";
import { signDelivery } from "./sign";

export type ClaimedDelivery = WebhookDelivery & { event: WebhookEvent; endpoint: WebhookEndpoint; lease: Date };

export interface AttemptResult {
  deliveryId: string;
  eventId: string;
  statusCode: number | null;
  succeeded: boolean;
  /** False when the lease was lost meanwhile (another worker owns the delivery now): nothing was recorded. */
  recorded: boolean;
}

/**
 * Claims up to `limit` due deliveries for this worker: rows locked with FOR UPDATE SKIP LOCKED (so
 * concurrent workers never pick the same row) get a lease (lockedUntil). Until the lease passes no
 * other worker claims them; a worker that dies mid-request loses them when it does, so the delivery
 * is retried (at least once; the receiver may see it twice, with the same webhook-id).
 */
export async function claimDueDeliveries(options: { now: Date; limit: number }): Promise<ClaimedDelivery[]> {
  const { now, limit } = options;
  const lease = new Date(now.getTime() + LEASE_MS);
  const claimed = await db().$queryRaw<{ id: string }[]>`
    UPDATE "WebhookDelivery" d SET "lockedUntil" = ${lease}
     WHERE d."id" IN (
       SELECT c."id" FROM "WebhookDelivery" c JOIN "WebhookEndpoint" w ON w."id" = c."endpointId"
        WHERE c."status" = 'pending' AND c."nextAttemptAt" <= ${now}
          AND (c."lockedUntil" IS NULL OR c."lockedUntil" <= ${now})
          AND w."disabledAt" IS NULL
        ORDER BY c."nextAttemptAt", c."createdAt"
        LIMIT ${limit}
        FOR UPDATE OF c SKIP LOCKED)
    RETURNING d."id"::text AS "id"`;
  if (!claimed.length) return [];
  const rows = await db().webhookDelivery.findMany({
    where: { id: { in: claimed.map((c) => c.id) } },
    include: { event: true, endpoint: true },
    orderBy: [{ nextAttemptAt: "asc" }, { createdAt: "asc" }],
  });
  return rows.map((r) => ({ ...r, lease }));
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
  retryAfterMs: number | null;
  responseExcerpt: string | null;
}

/** How much of a receiver's answer the delivery log keeps: enough to read an error message. */
export const RESPONSE_EXCERPT_LENGTH = 500;

/**
 * The start of a receiver's answer as the log shows it: control characters (terminal escapes, NUL)
 * replaced by spaces, at most RESPONSE_EXCERPT_LENGTH characters, null when nothing is left.
 */
export function responseExcerpt(body: string): string | null {
  const text = body.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffd]/g, " ").slice(0, RESPONSE_EXCERPT_LENGTH).trim();
  return text || null;
}

async function send(delivery: ClaimedDelivery, now: Date): Promise<Outcome> {
  const body = delivery.event.payload;
  let signature: Record<string, string>;
  try {
    signature = signDelivery({ endpoint: delivery.endpoint, eventId: delivery.eventId, body, sentAt: new Date(), now, authSecret: authSecret() });
  } catch {
    // Encrypted under another AUTH_SECRET: a failed attempt the school can see, not a crashed worker.
    return { statusCode: null, error: "The signing secret cannot be read (AUTH_SECRET changed?): rotate the endpoint's secret", succeeded: false, retryAfterMs: null, responseExcerpt: null };
  }
  const headers = { "content-type": "application/json", "user-agent": "Schoolhouse-Webhooks/1", ...signature };
  try {
    const res = await safeRequest({
      url: delivery.endpoint.url,
      method: "POST",
      headers,
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: 1024,
      policy: webhookFetchPolicy(delivery.endpoint.schoolId),
    });
    const succeeded = res.status >= 200 && res.status < 300;
    const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers["retry-after"], now) : null;
    const error = succeeded ? null : res.status >= 300 && res.status < 400 ? `HTTP ${res.status}: redirects are not followed` : `HTTP ${res.status}`;
    return { statusCode: res.status, error, succeeded, retryAfterMs, responseExcerpt: responseExcerpt(res.body) };
  } catch (err) {
    if (err instanceof SafeFetchError) return { statusCode: null, error: err.message, succeeded: false, retryAfterMs: null, responseExcerpt: null };
    throw err;
  }
}

/**
 * One HTTP attempt of a claimed delivery, and its record: the attempt row, the delivery's new state
 * (succeeded, retried later on the backoff schedule or after Retry-After, or failed when the
 * schedule is exhausted) and the endpoint's health (410 Gone or DISABLE_AFTER_FAILING_MS without a
 * success disables it, with the reason shown to the school).
 */
export async function attemptDelivery(options: {
  delivery: ClaimedDelivery;
  now: () => Date;
  /** Checked after the request: false drops the result unrecorded (a worker that was killed meanwhile). */
  shouldRecord?: () => boolean;
}): Promise<AttemptResult> {
  const { delivery } = options;
  const attemptedAt = options.now();
  const started = performance.now();
  const outcome = await send(delivery, attemptedAt);
  const durationMs = Math.round(performance.now() - started);
  const base = { deliveryId: delivery.id, eventId: delivery.eventId, statusCode: outcome.statusCode, succeeded: outcome.succeeded };
  if (options.shouldRecord && !options.shouldRecord()) return { ...base, recorded: false };

  const now = options.now();
  const attempts = delivery.attemptCount + 1;
  const delay = outcome.succeeded ? null : (outcome.retryAfterMs ?? retryDelayMs(attempts));
  const gone = outcome.statusCode === 410;
  const status = outcome.succeeded ? "succeeded" : delay === null || gone ? "failed" : "pending";
  const recorded = await db().$transaction(async (tx) => {
    // Only the lease holder records; a worker whose lease passed (and was taken over) records nothing.
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, lockedUntil: delivery.lease },
      data: {
        status,
        attemptCount: attempts,
        nextAttemptAt: status === "pending" ? new Date(now.getTime() + delay!) : null,
        lockedUntil: null,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        updatedAt: now,
      },
    });
    if (!count) return false;
    await tx.webhookAttempt.create({
      data: { deliveryId: delivery.id, attemptedAt, durationMs, statusCode: outcome.statusCode, error: outcome.error, succeeded: outcome.succeeded, responseExcerpt: outcome.responseExcerpt },
    });
    const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: delivery.endpointId } });
    if (!endpoint) return true;
    if (outcome.succeeded) {
      if (endpoint.failingSince) await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } });
      return true;
    }
    const failingSince = endpoint.failingSince ?? attemptedAt;
    const failingFor = now.getTime() - failingSince.getTime();
    const reason = gone
      ? `The endpoint answered 410 Gone on ${attemptedAt.toISOString()}`
      : failingFor >= DISABLE_AFTER_FAILING_MS
        ? `No successful delivery since ${failingSince.toISOString()} (last error: ${outcome.error})`
        : null;
    await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: reason && !endpoint.disabledAt ? { failingSince, disabledAt: now, disabledReason: reason, updatedAt: now } : { failingSince },
    });
    return true;
  });
  return { ...base, recorded };
}

/**
 * Delivers everything due, batch after batch, until nothing is due or the time budget is spent.
 * Used by the in-process worker, the cron route and after-response draining alike.
 */
export async function drainWebhooks(options: {
  now: () => Date;
  batchSize?: number;
  budgetMs?: number;
  shouldRecord?: () => boolean;
  shouldContinue?: () => boolean;
}): Promise<{ attempted: number; succeeded: number }> {
  const batchSize = options.batchSize ?? 10;
  const deadline = Date.now() + (options.budgetMs ?? 30_000);
  let attempted = 0;
  let succeeded = 0;
  while (Date.now() < deadline && (options.shouldContinue?.() ?? true)) {
    const batch = await claimDueDeliveries({ now: options.now(), limit: batchSize });
    if (!batch.length) break;
    const results = await Promise.all(batch.map((delivery) => attemptDelivery({ delivery, now: options.now, shouldRecord: options.shouldRecord })));
    attempted += results.length;
    succeeded += results.filter((r) => r.succeeded && r.recorded).length;
  }
  return { attempted, succeeded };
}
