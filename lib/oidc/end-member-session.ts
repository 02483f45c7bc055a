import { recordAudit, type AuditActor } from "../db/audit";
import { db } from "../db/client";
import { securityEvent } from "../security/events";
import { deliverBackchannelLogoutsSoon } from "./deliver-backchannel-logouts";
import { enqueueBackchannelLogouts } from "./enqueue-backchannel-logouts";

/**
 * Ends one member session (sign-out, RP-Initiated Logout): the session row is revoked (every copy
 * of its cookie stops working) and, in the same transaction, a back-channel logout is queued for
 * every client that session signed in to and that registered a backchannel_logout_uri. Delivery
 * starts at once and is retried until it succeeds or gives up. Returns whether a live session ended.
 * `audit`: who ends it and at which school, when that is a change to record (a member ending a
 * session from /account: `member.end_session`, in this transaction); null for a member's routine
 * sign-out and an app's RP-Initiated Logout, which the security log records (docs/decisions.md,
 * "Audit log").
 */
export async function endMemberSession(options: {
  sessionId: string;
  reason: string;
  now: Date;
  audit: { actor: AuditActor; schoolId: string } | null;
}): Promise<{ ended: boolean; notified: number }> {
  const { sessionId, now, audit } = options;
  if (!/^[0-9a-f-]{36}$/.test(sessionId)) return { ended: false, notified: 0 };
  const result = await db().$transaction(async (tx) => {
    const { count } = await tx.memberSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
    // Only a session that was live now: a second sign-out of the same session notifies nobody twice.
    const notified = count ? await enqueueBackchannelLogouts(tx, { scope: { sessionId }, now }) : 0;
    if (count && audit) {
      const session = await tx.memberSession.findUniqueOrThrow({ where: { id: sessionId }, select: { userId: true, origin: true } });
      const summary = { sessionId, origin: session.origin, reason: options.reason, revokedAt: { from: null, to: now } };
      await recordAudit(tx, { actor: audit.actor, now, entry: { schoolId: audit.schoolId, action: "member.end_session", target: { type: "member", id: session.userId }, summary } });
    }
    return { ended: count > 0, notified };
  });
  if (result.ended) securityEvent("session.revoked", { session_id: sessionId, reason: options.reason });
  if (result.notified) deliverBackchannelLogoutsSoon();
  return result;
}
