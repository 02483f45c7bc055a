import { createHash } from "node:crypto";
import { db } from "../db/client";
import { isUniqueViolation } from "../membership/records";

// The Idempotency-Key mechanism shared by the Admin API (header on mutations) and the MCP server
// (idempotency_key argument of write tools): the first request with a key executes and its result
// is stored for 24 h per credential; a repeat with the same request replays it without executing
// again; the same key with another request is refused, as is a repeat while the first still runs.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// responseStatus of a row whose first request is still executing.
const IN_PROGRESS = 0;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/**
 * A claim still in progress after this long was abandoned: its process died, or the database went
 * away before the claim could be released or finalized. Longer than any operation may run (the
 * rate limiter's operation timeout, Prisma's transaction timeout), so a live request is never
 * executed twice.
 */
export const IDEMPOTENCY_CLAIM_LEASE_MS = 2 * 60 * 1000;
// Background retries of a release or finalize that the database refused (an outage).
const FOLLOW_UP_DELAYS_MS = [100, 250, 500, 1000, 2000, 4000, 8000, 15_000, 30_000, 60_000];

/**
 * Runs a bookkeeping write now, and if the database refuses it, again in the background until it
 * succeeds or the delays run out (the claim lease is the backstop after that).
 */
async function followUp(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
    return;
  } catch {
    // Retried below.
  }
  let attempt = 0;
  const retry = () => {
    write().catch(() => {
      const delay = FOLLOW_UP_DELAYS_MS[attempt++];
      if (delay !== undefined) setTimeout(retry, delay).unref();
    });
  };
  setTimeout(retry, FOLLOW_UP_DELAYS_MS[attempt++]).unref();
}

export const isValidIdempotencyKey = (key: string) => KEY_PATTERN.test(key);

/** The credential a key belongs to: keys of different credentials never collide. */
export type IdempotencyOwner = { apiKeyId: string } | { grantId: string };

export const requestHashOf = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

export type Once<T> =
  | { kind: "executed"; value: T }
  | { kind: "replayed"; body: string }
  | { kind: "reused" }
  | { kind: "in_progress" };

function ownerWhere(owner: IdempotencyOwner, key: string) {
  return "apiKeyId" in owner ? { apiKeyId_key: { apiKeyId: owner.apiKeyId, key } } : { grantId_key: { grantId: owner.grantId, key } };
}

/**
 * Runs `execute` once per (owner, key). `execute` returns the value and the body to store, or
 * `body: null` when the outcome must not be replayed (an unexpected failure): the key is then
 * released so a retry with it executes. A thrown error releases the key too. A release or
 * finalize the database refused (an outage) is retried in the background, and a claim left in
 * progress longer than IDEMPOTENCY_CLAIM_LEASE_MS is taken over.
 */
export async function runOnce<T>(
  options: { schoolId: string; owner: IdempotencyOwner; key: string; requestHash: string; now: Date },
  execute: () => Promise<{ value: T; body: string | null }>,
): Promise<Once<T>> {
  const { schoolId, owner, key, requestHash, now } = options;
  let claimId: string;
  for (let attempt = 0; ; attempt++) {
    try {
      const claimed = await db().idempotencyKey.create({
        data: {
          schoolId,
          ...owner,
          key,
          requestHash,
          responseStatus: IN_PROGRESS,
          responseBody: "",
          createdAt: now,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      claimId = claimed.id;
      break;
    } catch (err) {
      if (!isUniqueViolation(err) || attempt > 0) throw err;
      const prior = await db().idempotencyKey.findUnique({ where: ownerWhere(owner, key) });
      if (!prior) continue;
      if (prior.expiresAt <= now) {
        await db().idempotencyKey.deleteMany({ where: { id: prior.id, expiresAt: { lte: now } } });
        continue;
      }
      if (prior.requestHash !== requestHash) return { kind: "reused" };
      if (prior.responseStatus === IN_PROGRESS && prior.createdAt.getTime() + IDEMPOTENCY_CLAIM_LEASE_MS <= now.getTime()) {
        await db().idempotencyKey.deleteMany({ where: { id: prior.id, responseStatus: IN_PROGRESS } });
        continue;
      }
      if (prior.responseStatus === IN_PROGRESS) return { kind: "in_progress" };
      return { kind: "replayed", body: prior.responseBody };
    }
  }
  // By the claim's id: a background retry must never touch a later request's claim of the key.
  const release = () => db().idempotencyKey.deleteMany({ where: { id: claimId, responseStatus: IN_PROGRESS } });
  let outcome: { value: T; body: string | null };
  try {
    outcome = await execute();
  } catch (err) {
    // Nothing was stored: let the client retry with the same key (also when the database is down
    // right now: the release is retried in the background).
    await followUp(release);
    throw err;
  }
  const { value, body } = outcome;
  if (body === null) {
    await followUp(release);
    return { kind: "executed", value };
  }
  // The write committed: report it even if recording the result has to wait for the database
  // (until then a retry with this key is told the request is still in progress).
  await followUp(() => db().idempotencyKey.updateMany({ where: { id: claimId, responseStatus: IN_PROGRESS }, data: { responseStatus: 200, responseBody: body } }));
  return { kind: "executed", value };
}

/** Deletes idempotency records older than their 24 h (run by the cron route). */
export async function purgeExpiredIdempotencyKeys(options: { now: Date }): Promise<number> {
  const { count } = await db().idempotencyKey.deleteMany({ where: { expiresAt: { lte: options.now } } });
  return count;
}
