import { z } from "zod";
import { now as clockNow } from "../clock";
import { db } from "../db/client";
import { decoyPasswordHash, verifyPassword } from "./password";

/** Consecutive failures that lock an account, and for how long. */
export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;
/** Each failure slows the next answer a little more (linear, capped): online guessing gets expensive. */
export const FAILURE_DELAY_STEP_MS = 200;
export const FAILURE_DELAY_MAX_MS = 1_000;

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().min(3).max(320),
  password: z.string().min(1).max(1024),
});

export interface AuthenticatedMember {
  id: string;
  email: string;
  name: string;
}

export interface AuthenticateOptions {
  credentials: unknown;
  now?: Date;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function failureDelayMs(failedCount: number): number {
  return Math.min(failedCount * FAILURE_DELAY_STEP_MS, FAILURE_DELAY_MAX_MS);
}

/**
 * Checks a member's email and password. Unknown emails are compared against a decoy hash and a
 * locked account still runs the KDF, so neither answers faster than a wrong password.
 * Returns null for every kind of failure: the login page shows one message for all of them.
 */
export async function authenticateMember(options: AuthenticateOptions): Promise<AuthenticatedMember | null> {
  const now = options.now ?? clockNow();
  const sleep = options.sleep ?? defaultSleep;
  const parsed = credentialsSchema.safeParse(options.credentials);
  if (!parsed.success) {
    await verifyPassword("x", await decoyPasswordHash());
    return null;
  }
  const { email, password } = parsed.data;
  const user = await db().user.findUnique({ where: { email } });
  if (!user?.passwordHash) {
    await verifyPassword(password, await decoyPasswordHash());
    return null;
  }
  const ok = await verifyPassword(password, user.passwordHash);
  const locked = user.lockedUntil !== null && user.lockedUntil > now;
  if (ok && !locked) {
    if (user.failedLoginCount !== 0 || user.lockedUntil) {
      await db().user.update({ where: { id: user.id }, data: { failedLoginCount: 0, lockedUntil: null } });
    }
    return { id: user.id, email: user.email, name: user.name };
  }
  if (locked) return null;
  // Atomic increment: parallel guesses cannot reuse one count.
  const updated = await db().user.update({
    where: { id: user.id },
    data: { failedLoginCount: { increment: 1 } },
    select: { failedLoginCount: true },
  });
  if (updated.failedLoginCount >= MAX_FAILED_LOGINS) {
    await db().user.update({
      where: { id: user.id },
      data: { failedLoginCount: 0, lockedUntil: new Date(now.getTime() + LOCK_MINUTES * 60_000) },
    });
  }
  await sleep(failureDelayMs(updated.failedLoginCount));
  return null;
}
