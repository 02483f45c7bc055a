import { now as clockNow } from "../clock";
import { db } from "../db/client";
import { env } from "../env";
import { safeRequest, SafeFetchError } from "../net/safe-fetch";
import { signJwt } from "./keys";
import { LOGOUT_TOKEN_TYP, logoutTokenClaims } from "./logout-token";

// Delivery of the BackchannelLogout rows (written with the logout that caused them): claimed with
// FOR UPDATE SKIP LOCKED and a lease, so any number of processes may drain at once and each row is
// posted by one of them; a failed post is retried with growing delays, then marked failed.
export const BACKCHANNEL_TIMEOUT_MS = 5_000;
export const BACKCHANNEL_LEASE_MS = 30_000;
/** Delays after the 1st, 2nd, … failed attempt; after the last the row is failed (about 2.5 h in all). */
export const BACKCHANNEL_RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];

interface Claimed {
  id: string;
  clientId: string;
  uri: string;
  issuer: string;
  sub: string;
  sid: string | null;
  attempts: number;
}

/** Posts every due logout token (up to `limit` per call); returns how many were delivered. */
export async function drainBackchannelLogouts(options: { now?: () => Date; limit?: number } = {}): Promise<number> {
  const now = options.now ?? clockNow;
  const at = now();
  const leaseUntil = new Date(at.getTime() + BACKCHANNEL_LEASE_MS);
  const rows = await db().$queryRaw<Claimed[]>`
    UPDATE "BackchannelLogout" b SET "leaseUntil" = ${leaseUntil}, "attempts" = b."attempts" + 1
     WHERE b."id" IN (
       SELECT "id" FROM "BackchannelLogout"
        WHERE "status" = 'pending' AND "nextAttemptAt" <= ${at} AND ("leaseUntil" IS NULL OR "leaseUntil" <= ${at})
        ORDER BY "nextAttemptAt" LIMIT ${options.limit ?? 50}
        FOR UPDATE SKIP LOCKED)
    RETURNING b."id"::text AS "id", b."clientId", b."uri", b."issuer", b."sub", b."sid", b."attempts"`;
  let delivered = 0;
  await Promise.all(
    rows.map(async (row) => {
      const error = await post(row);
      const finished = now();
      if (error === null) {
        delivered++;
        await db().backchannelLogout.update({ where: { id: row.id }, data: { status: "delivered", deliveredAt: finished, leaseUntil: null, lastError: null } });
        return;
      }
      const delay = BACKCHANNEL_RETRY_DELAYS_MS[row.attempts - 1];
      await db().backchannelLogout.update({
        where: { id: row.id },
        data:
          delay === undefined
            ? { status: "failed", leaseUntil: null, lastError: error }
            : { nextAttemptAt: new Date(finished.getTime() + delay), leaseUntil: null, lastError: error },
      });
    }),
  );
  return delivered;
}

/** One attempt: a freshly signed logout token, posted as a form (§2.5); null when the RP answered 2xx. */
async function post(row: Claimed): Promise<string | null> {
  let token: string;
  try {
    token = await signJwt(logoutTokenClaims(row), { typ: LOGOUT_TOKEN_TYP });
  } catch (err) {
    return `signing failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
  }
  try {
    const res = await safeRequest({
      url: row.uri,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "Schoolhouse-OIDC/1 (back-channel logout)", "cache-control": "no-store" },
      body: new URLSearchParams({ logout_token: token }).toString(),
      timeoutMs: BACKCHANNEL_TIMEOUT_MS,
      maxBytes: 1024,
      // Test suites only (env validation refuses the switches elsewhere): receivers on loopback.
      policy: { allowLoopbackForTests: env().WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS || env().OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS },
    });
    return res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`;
  } catch (err) {
    if (err instanceof SafeFetchError) return err.message;
    return err instanceof Error ? err.message.slice(0, 500) : String(err);
  }
}

/** Starts a delivery round without waiting for it (after a logout committed); failures stay pending for the worker. */
export function deliverBackchannelLogoutsSoon(): void {
  void drainBackchannelLogouts().catch((err: unknown) => console.error(`back-channel logout: delivery round failed: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`));
}
