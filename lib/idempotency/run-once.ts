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
 * released so a retry with it executes. A thrown error releases the key too.
 */
export async function runOnce<T>(
  options: { schoolId: string; owner: IdempotencyOwner; key: string; requestHash: string; now: Date },
  execute: () => Promise<{ value: T; body: string | null }>,
): Promise<Once<T>> {
  const { schoolId, owner, key, requestHash, now } = options;
  const release = () => db().idempotencyKey.deleteMany({ where: { ...owner, key, responseStatus: IN_PROGRESS } });
  for (let attempt = 0; ; attempt++) {
    try {
      await db().idempotencyKey.create({
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
      if (prior.responseStatus === IN_PROGRESS) return { kind: "in_progress" };
      return { kind: "replayed", body: prior.responseBody };
    }
  }
  try {
    const { value, body } = await execute();
    if (body === null) await release();
    else await db().idempotencyKey.update({ where: ownerWhere(owner, key), data: { responseStatus: 200, responseBody: body } });
    return { kind: "executed", value };
  } catch (err) {
    // Nothing was stored: let the client retry with the same key.
    await release();
    throw err;
  }
}

/** Deletes idempotency records older than their 24 h (run by the cron route). */
export async function purgeExpiredIdempotencyKeys(options: { now: Date }): Promise<number> {
  const { count } = await db().idempotencyKey.deleteMany({ where: { expiresAt: { lte: options.now } } });
  return count;
}
