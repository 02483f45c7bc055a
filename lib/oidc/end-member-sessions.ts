import { db } from "../db/client";
import { securityEvent } from "../security/events";
import { deliverBackchannelLogoutsSoon } from "./deliver-backchannel-logouts";
import { enqueueBackchannelLogouts } from "./enqueue-backchannel-logouts";

/**
 * Staff end a member's access at a school (disabling them, a compromised account): every live
 * session of the member on the school's origins is revoked and every client the member signed in
 * to there with `openid` gets a back-channel logout, in one transaction. Grants and tokens are left
 * to the caller (revokeMemberGrant ends them per client). Returns the sessions ended and the
 * logout tokens queued.
 */
export async function endMemberSessions(options: { userId: string; schoolId: string; origins: string[]; now: Date; reason: string }): Promise<{ sessions: number; notified: number }> {
  const { userId, schoolId, origins, now } = options;
  const result = await db().$transaction(async (tx) => {
    const { count } = await tx.memberSession.updateMany({ where: { userId, origin: { in: origins }, revokedAt: null }, data: { revokedAt: now } });
    const notified = await enqueueBackchannelLogouts(tx, { scope: { userId, schoolId }, now });
    return { sessions: count, notified };
  });
  if (result.sessions) securityEvent("session.revoked", { user_id: userId, school_id: schoolId, reason: options.reason, sessions: result.sessions });
  if (result.notified) deliverBackchannelLogoutsSoon();
  return result;
}
