import { safeEqual } from "../credentials/secret";
import { purgeExpiredIdempotencyKeys } from "../idempotency/run-once";
import { settleDueSubscriptions, type SettleResult } from "../membership/settle";
import { renewDueSubscriptions, type RenewalRunResult } from "../billing/renew-due";

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
  renewals: RenewalRunResult;
}

/**
 * The periodic job: applies due cancellations and expiries for every school, then renews, charges and
 * retries what is due (lib/billing; schools on a test clock move only with it), drops stale
 * idempotency records.
 */
export async function runScheduledJobs(options: { now: Date }): Promise<ScheduledJobsResult> {
  const settled = await settleDueSubscriptions({ now: options.now });
  const renewals = await renewDueSubscriptions({ now: options.now });
  const idempotencyKeysPurged = await purgeExpiredIdempotencyKeys({ now: options.now });
  return { ...settled, renewals, idempotencyKeysPurged };
}
