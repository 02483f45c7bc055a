import { db } from "../db/client";
import { securityEvent } from "../security/events";
import { deliverBackchannelLogoutsSoon } from "./deliver-backchannel-logouts";
import { enqueueBackchannelLogouts } from "./enqueue-backchannel-logouts";

/**
 * Ends one member session (sign-out, RP-Initiated Logout): the session row is revoked (every copy
 * of its cookie stops working) and, in the same transaction, a back-channel logout is queued for
 * every client that session signed in to and that registered a backchannel_logout_uri. Delivery
 * starts at once and is retried until it succeeds or gives up. Returns whether a live session ended.
 */
export async function endMemberSession(options: { sessionId: string; reason: string; now: Date }): Promise<{ ended: boolean; notified: number }> {
  const { sessionId, now } = options;
  if (!/^[0-9a-f-]{36}$/.test(sessionId)) return { ended: false, notified: 0 };
  const result = await db().$transaction(async (tx) => {
    const { count } = await tx.memberSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
    // Only a session that was live now: a second sign-out of the same session notifies nobody twice.
    const notified = count ? await enqueueBackchannelLogouts(tx, { scope: { sessionId }, now }) : 0;
    return { ended: count > 0, notified };
  });
  if (result.ended) securityEvent("session.revoked", { session_id: sessionId, reason: options.reason });
  if (result.notified) deliverBackchannelLogoutsSoon();
  return result;
}
