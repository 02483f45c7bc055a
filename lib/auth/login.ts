import { z } from "zod";
import { now as clockNow } from "../clock";
import { db } from "../db/client";
import { securityEvent } from "../security/events";
import { recordFailure, recordSuccess, throttleKeys, throttledFor } from "./login-throttle";
import { decoyPasswordHash, verifyPassword } from "./password";

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().min(3).max(320),
  password: z.string().min(1).max(1024),
});

export interface AuthenticatedMember {
  id: string;
  email: string;
  name: string;
}

export type AuthenticateResult =
  | { ok: true; member: AuthenticatedMember }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

export interface AuthenticateOptions {
  credentials: unknown;
  /** The client's address (clientAddress in lib/tenancy/request-context.ts), for per-address throttling. */
  address?: string | null;
  now?: Date;
}

/**
 * Checks a member's email and password with the same work whatever the email: unknown emails are
 * compared against a decoy hash and counted for throttling like real ones, so neither the answer,
 * its timing nor the throttling tells which emails have accounts. A throttled key is answered
 * without checking the password (lib/auth/login-throttle.ts); nothing ever locks an account.
 */
export async function authenticateMember(options: AuthenticateOptions): Promise<AuthenticateResult> {
  const now = options.now ?? clockNow();
  const parsed = credentialsSchema.safeParse(options.credentials);
  if (!parsed.success) {
    await verifyPassword("x", await decoyPasswordHash());
    return { ok: false, reason: "invalid" };
  }
  const { email, password } = parsed.data;
  const keys = throttleKeys(email, options.address ?? null);
  const throttled = await throttledFor(keys, now);
  if (throttled) {
    securityEvent("login.throttled", { throttle: throttled.key.kind, retry_after_seconds: throttled.retryAfterSeconds, address: options.address ?? null });
    return { ok: false, reason: "throttled", retryAfterSeconds: throttled.retryAfterSeconds };
  }
  const user = await db().user.findUnique({ where: { email }, select: { id: true, email: true, name: true, passwordHash: true } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (user?.passwordHash && ok) {
    await recordSuccess(email);
    return { ok: true, member: { id: user.id, email: user.email, name: user.name } };
  }
  await recordFailure(keys, now);
  return { ok: false, reason: "invalid" };
}
