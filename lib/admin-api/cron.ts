import { now } from "../clock";
import { safeEqual } from "../credentials/secret";
import { asDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { env } from "../env";
import { purgeExpiredIdempotencyKeys } from "../idempotency/run-once";
import { settleDueSubscriptions, type SettleResult } from "../membership/settle";
import { drainMail } from "../mail/deliver";
import { drainWebhooks } from "../webhooks/deliver";
import { renewDueSubscriptions, type RenewalRunResult } from "../billing/renew-due";
import { purgeAuditEvents } from "../db/audit";
import { db } from "../db/client";

export type CronAuth = { ok: true } | { ok: false; status: 401 | 503; error: string; message: string };

/**
 * Vercel Cron calls with `Authorization: Bearer <CRON_SECRET>`. Without a configured secret the
 * route refuses every call (503) rather than running for anyone: the jobs only repeat work that
 * reads already do lazily, so a disabled cron costs nothing but tidiness.
 */
export function authorizeCron(options: { headers: Headers; secret: string | undefined }): CronAuth {
  if (!options.secret) {
    return { ok: false, status: 503, error: "cron_disabled", message: "CRON_SECRET is not configured; scheduled jobs are disabled" };
  }
  const m = /^Bearer\s+(.+)$/i.exec(options.headers.get("authorization") ?? "");
  if (!m || !safeEqual(m[1]!.trim(), options.secret)) {
    return { ok: false, status: 401, error: "unauthorized", message: "Send Authorization: Bearer <CRON_SECRET>" };
  }
  return { ok: true };
}

export interface ScheduledJobsResult extends SettleResult {
  idempotencyKeysPurged: number;
  /** Audit rows past the retention period (lib/db/audit.ts, AUDIT_RETENTION_DAYS) deleted by this run. */
  auditEventsPurged: number;
  renewals: RenewalRunResult;
}

/**
 * The periodic job: applies due cancellations and expiries for every school, then renews, charges and
 * retries what is due (lib/billing; schools on a test clock move only with it), drops stale
 * idempotency records and audit rows past their retention period.
 */
export async function runScheduledJobs(options: { now: Date }): Promise<ScheduledJobsResult> {
  const settled = await settleDueSubscriptions({ now: options.now });
  const renewals = await renewDueSubscriptions({ now: options.now });
  const idempotencyKeysPurged = await purgeExpiredIdempotencyKeys({ now: options.now });
  const auditEventsPurged = await purgeAuditEvents(db(), { now: options.now });
  return { ...settled, renewals, idempotencyKeysPurged, auditEventsPurged };
}

const NO_STORE = { "cache-control": "no-store" };

function refused(auth: Extract<CronAuth, { ok: false }>): Response {
  return Response.json({ error: auth.error, message: auth.message }, { status: auth.status, headers: NO_STORE });
}

/** GET /api/cron/subscriptions (vercel.json crons): due cancellations and expiries, stale idempotency records. */
export async function handleSubscriptionsCron(request: Request): Promise<Response> {
  const auth = authorizeCron({ headers: request.headers, secret: env().CRON_SECRET });
  if (!auth.ok) return refused(auth);
  try {
    const result = await runScheduledJobs({ now: now() });
    return Response.json({ ok: true, ...result }, { headers: NO_STORE });
  } catch (err) {
    // The scheduler retries on 5xx; the jobs are idempotent, so a cut run is simply run again.
    if (!asDatabaseUnavailable(err)) throw err;
    return Response.json(
      { error: "temporarily_unavailable", message: "The database is unavailable; the jobs will run on the next call" },
      { status: 503, headers: { ...NO_STORE, ...retryAfterHeaders() } },
    );
  }
}

/**
 * GET /api/cron/webhooks (vercel.json crons): delivers every due webhook, then every due mail
 * (lib/mail), within 50 s, so nothing waits on a request to drain it.
 */
export async function handleWebhooksCron(request: Request): Promise<Response> {
  const auth = authorizeCron({ headers: request.headers, secret: env().CRON_SECRET });
  if (!auth.ok) return refused(auth);
  const result = await drainWebhooks({ now, budgetMs: 35_000 });
  const mail = await drainMail({ now, budgetMs: 15_000 });
  return Response.json({ ok: true, ...result, mail }, { headers: NO_STORE });
}
