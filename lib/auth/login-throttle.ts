import { db } from "../db/client";

/**
 * Progressive login throttling instead of a lockout. Failed password checks are counted per account
 * (the email as typed, whether or not an account has it, so throttling tells nothing about which
 * emails exist) and per client address. Past a few free failures each further failure makes that
 * key wait longer before its next attempt is even checked, doubling up to a cap. The account cap
 * is short: a stranger guessing can slow the owner's sign-in by at most that long, never lock it.
 */
export const THROTTLE_RULES = {
  account: { free: 5, maxWaitSeconds: 30 },
  address: { free: 20, maxWaitSeconds: 300 },
  // Password reset requests (lib/auth/password-reset.ts) count every request, not failures: a few
  // mails per address an hour, then doubling waits of up to an hour, so nobody can flood a mailbox.
  resetAccount: { free: 3, maxWaitSeconds: 3600 },
  resetAddress: { free: 10, maxWaitSeconds: 3600 },
} as const;
/** A key's failures are forgotten after this long without one. */
export const THROTTLE_FORGET_SECONDS = 60 * 60;

export type ThrottleKind = keyof typeof THROTTLE_RULES;
export interface ThrottleKey {
  kind: ThrottleKind;
  value: string;
}

export const throttleKeys = (email: string, address: string | null): ThrottleKey[] => [
  { kind: "account", value: email },
  ...(address ? [{ kind: "address" as const, value: address }] : []),
];

const id = (k: ThrottleKey) => `${k.kind}:${k.value}`;

/** Seconds to wait after `failures` consecutive failures under a rule (0 while failures are free). */
export function waitSeconds(kind: ThrottleKind, failures: number): number {
  const rule = THROTTLE_RULES[kind];
  if (failures < rule.free) return 0;
  return Math.min(2 ** (failures - rule.free), rule.maxWaitSeconds);
}

/** When any key is still waiting: the seconds left before its next attempt is checked. */
export async function throttledFor(keys: ThrottleKey[], now: Date): Promise<{ key: ThrottleKey; retryAfterSeconds: number } | null> {
  const rows = await db().loginThrottle.findMany({ where: { key: { in: keys.map(id) }, blockedUntil: { gt: now } } });
  let worst: { key: ThrottleKey; retryAfterSeconds: number } | null = null;
  for (const row of rows) {
    const seconds = Math.ceil((row.blockedUntil!.getTime() - now.getTime()) / 1000);
    if (!worst || seconds > worst.retryAfterSeconds) worst = { key: keys.find((k) => id(k) === row.key)!, retryAfterSeconds: seconds };
  }
  return worst;
}

/** Counts a failed check on every key (atomically, so parallel guesses cannot share one count). */
export async function recordFailure(keys: ThrottleKey[], now: Date): Promise<void> {
  const forgetBefore = new Date(now.getTime() - THROTTLE_FORGET_SECONDS * 1000);
  for (const key of keys) {
    const [row] = await db().$queryRaw<{ failures: number }[]>`
      INSERT INTO "LoginThrottle" ("key", "failures", "lastFailureAt")
      VALUES (${id(key)}, 1, ${now})
      ON CONFLICT ("key") DO UPDATE SET
        "failures" = CASE WHEN "LoginThrottle"."lastFailureAt" < ${forgetBefore} THEN 1 ELSE "LoginThrottle"."failures" + 1 END,
        "lastFailureAt" = ${now}
      RETURNING "failures"`;
    const wait = waitSeconds(key.kind, row!.failures);
    if (wait > 0) {
      await db().loginThrottle.update({ where: { key: id(key) }, data: { blockedUntil: new Date(now.getTime() + wait * 1000) } });
    }
  }
}

/** A successful sign-in clears the account's count (the address keeps its own: one good login must not launder guesses). */
export async function recordSuccess(email: string): Promise<void> {
  await db().loginThrottle.deleteMany({ where: { key: id({ kind: "account", value: email }) } });
}
