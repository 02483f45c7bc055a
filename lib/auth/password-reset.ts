import { z } from "zod";
import { db } from "../db/client";
import { enqueueMail } from "../mail/enqueue";
import { recordFailure, throttledFor, type ThrottleKey } from "./login-throttle";

export const FORGOT_PASSWORD_PATH = "/login/forgot";

const emailShape = z.email().max(254);

export type PasswordResetAnswer = { status: "accepted" } | { status: "invalid_email" } | { status: "throttled"; retryAfterSeconds: number };

/**
 * "Forgot password": when `email` belongs to a member of the school, a password-reset mail (a
 * one-hour, single-use set-password link: lib/mail/templates/password-reset.ts) goes into the
 * outbox. The answer is "accepted" whether or not it does, so it never tells which emails exist;
 * requests are throttled per email (existing or not) and per client address alike.
 */
export async function requestPasswordReset(options: { schoolId: string; email: unknown; address: string | null; now: Date }): Promise<PasswordResetAnswer> {
  const parsed = emailShape.safeParse(typeof options.email === "string" ? options.email.trim().toLowerCase() : options.email);
  if (!parsed.success) return { status: "invalid_email" };
  const email = parsed.data;
  const keys: ThrottleKey[] = [{ kind: "resetAccount", value: email }, ...(options.address ? [{ kind: "resetAddress" as const, value: options.address }] : [])];
  const waiting = await throttledFor(keys, options.now);
  if (waiting) return { status: "throttled", retryAfterSeconds: waiting.retryAfterSeconds };
  await recordFailure(keys, options.now);
  await db().$transaction(async (tx) => {
    const member = await tx.schoolMembership.findFirst({ where: { schoolId: options.schoolId, user: { email } }, select: { userId: true } });
    if (member) await enqueueMail(tx, { schoolId: options.schoolId, kind: "password-reset", to: email, userId: member.userId, now: options.now });
  });
  return { status: "accepted" };
}
