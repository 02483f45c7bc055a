import { now as clockNow } from "../clock";
import { unavailableReason } from "../db/unavailable";
import { drainMail } from "../mail/deliver";
import { drainBackchannelLogouts } from "../oidc/deliver-backchannel-logouts";
import { renewDueSubscriptions } from "../billing/renew-due";
import { drainWebhooks } from "./deliver";
import { purgeAuditEvents } from "../db/audit";
import { db } from "../db/client";
import { vacuumEmbedded } from "../db/embedded-vacuum";

/** How often the worker runs renewals (lib/billing), when asked to. */
export const RENEWAL_INTERVAL_MS = 60_000;

/** After a failed round (e.g. the database unavailable) the worker waits this long before the next. */
export const ERROR_BACKOFF_MS = 5_000;

export interface WebhookWorker {
  /** Stops polling and waits for the round in progress. abandon: drop in-flight results unrecorded, as a killed process would. */
  stop(options?: { abandon?: boolean }): Promise<void>;
}

/**
 * The in-process delivery loop of a long-running server (`npm start`): drains due deliveries, then
 * polls every `intervalMs` (a new event is delivered within about that time). Several instances may
 * run it against one database: claims use row locks, so each delivery goes to one worker at a time.
 * Errors (e.g. the database briefly unavailable) are logged and the loop goes on.
 */
export function startWebhookWorker(
  options: {
    intervalMs?: number;
    now?: () => Date;
    log?: (message: string) => void;
    /** Also run due renewals, charges and retries (lib/billing/renew-due.ts) every RENEWAL_INTERVAL_MS. */
    renewals?: boolean;
  } = {},
): WebhookWorker {
  const intervalMs = options.intervalMs ?? 500;
  const now = options.now ?? clockNow;
  const log = options.log ?? ((m: string) => console.error(m));
  let running = true;
  let abandoned = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let lastError: string | null = null;
  let lastRenewal = 0;
  const loop = (async () => {
    while (running) {
      let failed = false;
      try {
        await drainWebhooks({ now, budgetMs: 10_000, shouldRecord: () => !abandoned, shouldContinue: () => running });
        // Back-Channel Logout tokens share the loop (issue 25): retries of those a logout could not deliver at once.
        await drainBackchannelLogouts({ now });
        // Renewals share the loop too (their events are then delivered by the next round).
        if (options.renewals && Date.now() - lastRenewal >= RENEWAL_INTERVAL_MS) {
          lastRenewal = Date.now();
          await renewDueSubscriptions({ now: now() });
          // The audit log's retention (lib/db/audit.ts) on the same schedule as renewals.
          await purgeAuditEvents(db(), { now: now() });
          // The embedded database's autovacuum (it has none of its own), on the same schedule.
          await vacuumEmbedded();
        }
        // The mail outbox (lib/mail) shares it too: one loop, one backoff, one log line per outage.
        await drainMail({ now, budgetMs: 10_000, shouldContinue: () => running });
        lastError = null;
      } catch (err) {
        failed = true;
        // Once per distinct error, not every round: a database outage would otherwise flood the log.
        const reason = unavailableReason(err);
        const detail = reason ? `the database is unavailable (${reason})` : err instanceof Error ? err.message.split("\n")[0] : String(err);
        const message = `webhooks: delivery round failed: ${detail}; retrying in ${ERROR_BACKOFF_MS / 1000} s`;
        if (message !== lastError) log(message);
        lastError = message;
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, failed ? Math.max(intervalMs, ERROR_BACKOFF_MS) : intervalMs);
        timer.unref?.();
      });
    }
  })();
  return {
    async stop(stopOptions = {}) {
      running = false;
      if (stopOptions.abandon) abandoned = true;
      if (timer) clearTimeout(timer);
      wake?.();
      if (!stopOptions.abandon) await loop;
    },
  };
}
