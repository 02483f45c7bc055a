import { recordAudit, type AuditActor } from "../db/audit";
import { db } from "../db/client";
import { deliverBackchannelLogoutsSoon } from "../oidc/deliver-backchannel-logouts";
import { enqueueBackchannelLogouts } from "../oidc/enqueue-backchannel-logouts";
import { securityEvent } from "../security/events";
import { recordFailure, throttledFor, type ThrottleKey } from "./login-throttle";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-setup";
import { hashPassword, verifyPassword } from "./password";

export type ChangePasswordResult = { ok: true; changed: boolean } | { ok: false; reason: "wrong_password" | "weak_password" | "mismatch" | "throttled" };

export const CHANGE_PASSWORD_MESSAGES: Record<Extract<ChangePasswordResult, { ok: false }>["reason"], string> = {
  wrong_password: "Your current password was not correct. Nothing was changed.",
  weak_password: `Choose a new password of at least ${MIN_PASSWORD_LENGTH} characters (at most ${MAX_PASSWORD_LENGTH}). Nothing was changed.`,
  mismatch: "The two new passwords did not match. Nothing was changed.",
  throttled: "Too many wrong passwords for this account. Wait a minute, then try again. Nothing was changed.",
};

/**
 * A signed-in member changes their password, proving the current one. A new password ends every
 * other session of the member (on every school's host, with Back-Channel Logout to the apps they
 * signed in to), keeping the one making the change. Submitting the same form twice is not an error:
 * the second "current password" no longer matches, but the new one does, so nothing more happens.
 * Wrong current passwords count against the account in the login throttle (lib/auth/login-throttle.ts):
 * a stolen session must not become a way to guess the password faster than the login page allows.
 * The change is audited at the school where the member made it (`member.change_password`, never the
 * password), in the transaction that sets it and ends the other sessions.
 */
export async function changeMemberPassword(options: {
  schoolId: string;
  userId: string;
  keepSessionId: string;
  current: string;
  password: string;
  confirm: string;
  now: Date;
  actor: AuditActor;
}): Promise<ChangePasswordResult> {
  const { schoolId, userId, keepSessionId, current, password, confirm, now, actor } = options;
  const user = await db().user.findUnique({ where: { id: userId }, select: { passwordHash: true, email: true } });
  const stored = user?.passwordHash ?? null;
  const keys: ThrottleKey[] = user ? [{ kind: "account", value: user.email }] : [];
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) return { ok: false, reason: "weak_password" };
  if (password !== confirm) return { ok: false, reason: "mismatch" };
  if (await throttledFor(keys, now)) return { ok: false, reason: "throttled" };
  if (!stored || current.length > MAX_PASSWORD_LENGTH || !(await verifyPassword(current, stored))) {
    // The double submit: the first request already set this password.
    if (stored && (await verifyPassword(password, stored))) return { ok: true, changed: false };
    await recordFailure(keys, now);
    return { ok: false, reason: "wrong_password" };
  }
  const passwordHash = await hashPassword(password);
  const ended = await db().$transaction(async (tx) => {
    // Conditional on the hash read: two different concurrent changes cannot both win.
    const { count } = await tx.user.updateMany({ where: { id: userId, passwordHash: stored }, data: { passwordHash } });
    if (count !== 1) return null;
    const others = await tx.memberSession.findMany({ where: { userId, revokedAt: null, id: { not: keepSessionId } }, select: { id: true } });
    let notified = 0;
    for (const s of others) notified += await enqueueBackchannelLogouts(tx, { scope: { sessionId: s.id }, now });
    await tx.memberSession.updateMany({ where: { id: { in: others.map((s) => s.id) } }, data: { revokedAt: now } });
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "member.change_password", target: { type: "member", id: userId }, summary: { otherSessionsEnded: others.length } } });
    return { sessions: others.map((s) => s.id), notified };
  });
  if (!ended) return { ok: false, reason: "wrong_password" };
  securityEvent("password.changed", { user_id: userId, sessions_ended: ended.sessions.length });
  for (const id of ended.sessions) securityEvent("session.revoked", { session_id: id, reason: "password_changed" });
  if (ended.notified) deliverBackchannelLogoutsSoon();
  return { ok: true, changed: true };
}
