// When a failed delivery is tried again. The Standard Webhooks / Svix schedule (immediately, 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) stretched by two more steps so the last try is about three
// days after the first: a receiver down over a weekend still gets everything.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before attempt n+1 after n failed attempts (index n-1); after the last, the delivery fails. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 20 * HOUR, 24 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** ±20 %, so endpoints that failed together are not all retried in the same instant. */
export const JITTER = 0.2;
/** A Retry-After (429/503) is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;
/** An endpoint with no success for this long is disabled (deliveries keep failing beyond the schedule). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * HOUR;
/** A claimed delivery belongs to its worker this long; a worker that died mid-request loses it then. */
export const LEASE_MS = 60 * SECOND;
/** Time limit of one request (connect to last byte). */
export const DELIVERY_TIMEOUT_MS = 15 * SECOND;

/** The delay after `attempts` failed attempts, or null when the schedule is exhausted. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date), capped; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const trimmed = raw.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
