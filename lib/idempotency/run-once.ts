import { createHash } from "node:crypto";
import { db } from "../db/client";
import { withoutDbCancellation } from "../db/lane";
import { isUniqueViolation } from "../db/write-transaction";

// The Idempotency-Key mechanism shared by the Admin API (header on mutations), the MCP server
// (idempotency_key argument of write tools) and the staff console (a key per rendered form): the first request with a key executes and its result
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
async function followUp(bookkeeping: () => Promise<unknown>): Promise<void> {
  // Recorded even when the operation was cut at its time limit (its database lane is cancelled then).
  const write = () => withoutDbCancellation(bookkeeping);
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
export type IdempotencyOwner = { apiKeyId: string } | { grantId: string } | { sessionId: string };

export const requestHashOf = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

export type Once<T> =
  | { kind: "executed"; value: T }
  | { kind: "replayed"; body: string }
  | { kind: "reused" }
  | { kind: "in_progress" };

function ownerWhere(owner: IdempotencyOwner, key: string) {
  if ("apiKeyId" in owner) return { apiKeyId_key: { apiKeyId: owner.apiKeyId, key } };
  if ("grantId" in owner) return { grantId_key: { grantId: owner.grantId, key } };
  return { sessionId_key: { sessionId: owner.sessionId, key } };
}

/** How long a repeat waits for the first request with its key before answering in_progress. */
export const IDEMPOTENCY_WAIT_MS = 1_000;
const WAIT_STEPS_MS = [10, 20, 40, 80, 160, 250];
// Claim attempts before a repeat that keeps losing races is told the key is in use.
const CLAIM_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Claim = { kind: "claimed"; id: string } | { kind: "wait" } | Exclude<Once<never>, { kind: "executed" }>;

/**
 * One attempt to claim (owner, key): inserted, or what the existing row says. Every race ends in
 * an answer, never in the unique violation itself: a row that vanishes between the insert and the
 * read (released by a failed first request, or expired) is a reason to try again.
 */
async function claim(
  options: { schoolId: string; owner: IdempotencyOwner; key: string; requestHash: string; now: Date },
  /** false while waiting for another request's claim: read it, do not try to insert again. */
  insert: boolean,
): Promise<Claim | null> {
  const { schoolId, owner, key, requestHash, now } = options;
  if (insert) {
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
      return { kind: "claimed", id: claimed.id };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  const prior = await db().idempotencyKey.findUnique({ where: ownerWhere(owner, key) });
  if (!prior) return null;
  if (prior.expiresAt <= now) {
    await db().idempotencyKey.deleteMany({ where: { id: prior.id, expiresAt: { lte: now } } });
    return null;
  }
  if (prior.requestHash !== requestHash) return { kind: "reused" };
  if (prior.responseStatus === IN_PROGRESS && prior.createdAt.getTime() + IDEMPOTENCY_CLAIM_LEASE_MS <= now.getTime()) {
    await db().idempotencyKey.deleteMany({ where: { id: prior.id, responseStatus: IN_PROGRESS } });
    return null;
  }
  if (prior.responseStatus === IN_PROGRESS) return { kind: "wait" };
  return { kind: "replayed", body: prior.responseBody };
}

/**
 * Runs `execute` once per (owner, key). `execute` returns the value and the body to store, or
 * `body: null` when the outcome must not be replayed (an unexpected failure that changed nothing):
 * the key is then released so a retry with it executes. A thrown error releases the key too. A
 * repeat while the first request still runs waits for it up to `waitMs` (IDEMPOTENCY_WAIT_MS)
 * and then replays its result, executes itself if the first released the key, or answers
 * in_progress. A release or finalize the database refused (an outage) is retried in the
 * background, and a claim left in progress longer than IDEMPOTENCY_CLAIM_LEASE_MS is taken over.
 */
export async function runOnce<T>(
  options: { schoolId: string; owner: IdempotencyOwner; key: string; requestHash: string; now: Date; waitMs?: number },
  execute: () => Promise<{ value: T; body: string | null }>,
): Promise<Once<T>> {
  const waitMs = options.waitMs ?? IDEMPOTENCY_WAIT_MS;
  // Real time, not the service clock: tests freeze that one, and the wait is for another request.
  const deadline = performance.now() + waitMs;
  let claimId: string | undefined;
  for (let attempt = 0, step = 0, insert = true; claimId === undefined; ) {
    const claimed = await claim(options, insert);
    insert = claimed?.kind !== "wait";
    if (claimed === null) {
      if (++attempt >= CLAIM_ATTEMPTS) return { kind: "in_progress" };
      continue;
    }
    switch (claimed.kind) {
      case "claimed":
        claimId = claimed.id;
        break;
      case "wait": {
        const left = deadline - performance.now();
        if (left <= 0) return { kind: "in_progress" };
        await sleep(Math.min(left, WAIT_STEPS_MS[Math.min(step++, WAIT_STEPS_MS.length - 1)]!));
        break;
      }
      default:
        return claimed;
    }
  }
  // By the claim's id: a background retry must never touch a later request's claim of the key.
  const id = claimId;
  const release = () => db().idempotencyKey.deleteMany({ where: { id, responseStatus: IN_PROGRESS } });
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
  await followUp(() => db().idempotencyKey.updateMany({ where: { id, responseStatus: IN_PROGRESS }, data: { responseStatus: 200, responseBody: body } }));
  return { kind: "executed", value };
}

/** Deletes idempotency records older than their 24 h (run by the cron route). */
export async function purgeExpiredIdempotencyKeys(options: { now: Date }): Promise<number> {
  const { count } = await db().idempotencyKey.deleteMany({ where: { expiresAt: { lte: options.now } } });
  return count;
}
