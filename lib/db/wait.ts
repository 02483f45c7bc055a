// Start-up against a database that is not there yet (a failover, a cold start racing the
// database's own start): retry with backoff for a bounded time instead of exiting at the first
// refusal. Only outages (lib/db/unavailable.ts) are retried; bad credentials or a missing database
// fail at once, since waiting cannot fix them.
import { unavailableReason } from "./unavailable";

export interface WaitOptions {
  /** One attempt; throws when the database does not answer. */
  attempt: () => Promise<void>;
  /** Give up after this long (ms); 0 tries once. */
  maxWaitMs: number;
  /** Printed once, when the first attempt fails and waiting begins. */
  log: (line: string) => void;
  /** What is being waited for, for the log line (e.g. "DATABASE_URL (db:5432/app)"). */
  target: string;
  sleep?: (ms: number) => Promise<void>;
  monotonic?: () => number;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/** Resolves when an attempt succeeds; rethrows the last error when it is not an outage or time is up. */
export async function waitForDatabase(o: WaitOptions): Promise<void> {
  const sleep = o.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const monotonic = o.monotonic ?? (() => performance.now());
  const deadline = monotonic() + o.maxWaitMs;
  let delay = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await o.attempt();
      return;
    } catch (err) {
      const reason = unavailableReason(err);
      const left = deadline - monotonic();
      if (!reason || left <= 0) throw err;
      if (attempt === 1) {
        o.log(`database ${reason} at ${o.target}; retrying with backoff for up to ${Math.ceil(o.maxWaitMs / 1000)} s`);
      }
      await sleep(Math.min(delay, left));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
