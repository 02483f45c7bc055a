import { createHash } from "node:crypto";
import type { ExecutionResult } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { now as clockNow } from "../clock";
import { db } from "../db/client";
import type { AdminContext } from "./context";
import { isUniqueViolation } from "../membership/records";

export const IDEMPOTENCY_HEADER = "idempotency-key";
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

const refuse = (message: string, code: string, status: number): ExecutionResult => ({
  errors: [createGraphQLError(message, { extensions: { code, http: { status } } })],
});

function requestHash(ctx: AdminContext): string {
  const { query, variables, operationName } = ctx.params;
  return createHash("sha256")
    .update(JSON.stringify({ query: query ?? null, variables: variables ?? null, operationName: operationName ?? null }))
    .digest("hex");
}

/**
 * Idempotency-Key on mutations: the first request with a key executes and its result is stored
 * for 24 h (per API key); a repeat with the same body gets that result without executing again,
 * the same key with another body is refused (422), and a repeat while the first still runs is
 * refused (409). A result with top-level errors (unexpected failures) is not stored, so a retry
 * with the same key executes. A claim whose release or finalize the database refused (an outage) is retried
 * in the background, and a claim left in progress longer than IDEMPOTENCY_CLAIM_LEASE_MS is taken over.
 */
export function idempotencyPlugin(): Plugin<AdminContext> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const ctx = args.contextValue as AdminContext;
      const key = ctx.request.headers.get(IDEMPOTENCY_HEADER);
      if (key === null || ctx.operationType !== "mutation") return;
      setExecuteFn(async (execArgs) => {
        if (!KEY_PATTERN.test(key)) {
          return refuse("Idempotency-Key must be 1 to 255 visible ASCII characters", "INVALID_IDEMPOTENCY_KEY", 400);
        }
        const now = clockNow();
        const apiKeyId = ctx.credential.id;
        const hash = requestHash(ctx);
        const claim = () =>
          db().idempotencyKey.create({
            data: {
              schoolId: ctx.credential.schoolId,
              apiKeyId,
              key,
              requestHash: hash,
              responseStatus: IN_PROGRESS,
              responseBody: "",
              createdAt: now,
              expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
            },
          });
        let claimId: string;
        for (let attempt = 0; ; attempt++) {
          try {
            claimId = (await claim()).id;
            break;
          } catch (err) {
            if (!isUniqueViolation(err) || attempt > 0) throw err;
            const prior = await db().idempotencyKey.findUnique({ where: { apiKeyId_key: { apiKeyId, key } } });
            if (!prior) continue;
            if (prior.expiresAt <= now) {
              await db().idempotencyKey.deleteMany({ where: { id: prior.id, expiresAt: { lte: now } } });
              continue;
            }
            if (prior.requestHash !== hash) {
              return refuse(
                "This Idempotency-Key was already used with a different request body; use a new key for a new request",
                "IDEMPOTENCY_KEY_REUSED",
                422,
              );
            }
            if (prior.responseStatus === IN_PROGRESS && prior.createdAt.getTime() + IDEMPOTENCY_CLAIM_LEASE_MS <= now.getTime()) {
              await db().idempotencyKey.deleteMany({ where: { id: prior.id, responseStatus: IN_PROGRESS } });
              continue;
            }
            if (prior.responseStatus === IN_PROGRESS) {
              return refuse("A request with this Idempotency-Key is still being processed; retry shortly", "IDEMPOTENCY_KEY_IN_USE", 409);
            }
            ctx.notes.idempotentReplay = true;
            return JSON.parse(prior.responseBody) as ExecutionResult;
          }
        }
        // By the claim's id: a background retry must never touch a later request's claim of the key.
        const release = () => db().idempotencyKey.deleteMany({ where: { id: claimId, responseStatus: IN_PROGRESS } });
        let result: ExecutionResult;
        try {
          result = (await executeFn(execArgs)) as ExecutionResult;
        } catch (err) {
          // Nothing was stored: let the client retry with the same key (also when the database
          // is down right now: the release is retried in the background).
          await followUp(release);
          throw err;
        }
        if (result.errors?.length) {
          // Mutations report their failures in the payload; a top-level error is unexpected
          // (e.g. the database was unreachable), so release the key rather than replay it.
          await followUp(release);
          return result;
        }
        // The mutation committed: report it even if recording the result has to wait for the
        // database (until then a retry with this key is told the request is still in progress).
        await followUp(() =>
          db().idempotencyKey.updateMany({
            where: { id: claimId, responseStatus: IN_PROGRESS },
            data: { responseStatus: 200, responseBody: JSON.stringify(result) },
          }),
        );
        return result;
      });
    },
  };
}

/** Deletes idempotency records older than their 24 h (run by the cron route). */
export async function purgeExpiredIdempotencyKeys(options: { now: Date }): Promise<number> {
  const { count } = await db().idempotencyKey.deleteMany({ where: { expiresAt: { lte: options.now } } });
  return count;
}
