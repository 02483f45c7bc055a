import { recordAudit, type AuditActor } from "../../db/audit";
import type { Prisma } from "../../db/generated/client";
import { deliverBackchannelLogoutsSoon } from "../../oidc/deliver-backchannel-logouts";
import { enqueueBackchannelLogouts } from "../../oidc/enqueue-backchannel-logouts";
import { securityEvent } from "../../security/events";
import { revokeGrant } from "../tokens";

/**
 * A member (or staff for a member) disconnects one app at one school: every live grant of that
 * client for that member there ends at once, with all of its access and refresh tokens (an
 * unredeemed code of a revoked grant is refused by the exchange), and the client, when it registered
 * a backchannel_logout_uri, is told to end the sessions those grants signed in (Back-Channel Logout), and the remembered consent goes too, so the app has to ask again. One
 * transaction: the caller passes one (`db.$transaction`) or this opens it. Returns how many grants
 * ended (0: nothing of this client was live, which the transports answer as not found). A
 * disconnect that ended something is audited (`member.disconnect_app`, target the member) in that
 * transaction; one that found nothing live writes no row.
 */
export async function revokeMemberGrant(options: {
  db: { $transaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> };
  schoolId: string;
  userId: string;
  clientId: string;
  now: Date;
  /** Who ends it: the member themself (/account) or staff (the console); the audit log's actor. */
  actor: AuditActor;
}): Promise<{ revokedGrants: number }> {
  const { schoolId, userId, clientId, now, actor } = options;
  const { count: revoked, notified } = await options.db.$transaction(async (tx) => {
    const grants = await tx.oAuthGrant.findMany({ where: { schoolId, userId, clientId, revokedAt: null }, select: { id: true } });
    for (const g of grants) await revokeGrant(tx, g.id, now);
    const notified = await enqueueBackchannelLogouts(tx, { scope: { grantIds: grants.map((g) => g.id) }, now });
    await tx.oAuthConsent.deleteMany({ where: { schoolId, userId, clientId } });
    if (grants.length) {
      const summary = { clientId: clientId.slice(0, 200), revokedGrants: grants.length };
      await recordAudit(tx, { actor, now, entry: { schoolId, action: "member.disconnect_app", target: { type: "member", id: userId }, summary } });
    }
    return { count: grants.length, notified };
  });
  // The security log's coarser actor: the member acting on their own grants, or staff for them.
  const byMember = actor.type === "member" && actor.id === userId;
  if (revoked) securityEvent("oauth.grant_revoked", { client_id: clientId.slice(0, 200), user_id: userId, school_id: schoolId, actor: byMember ? "member" : "staff", grants: revoked });
  if (notified) deliverBackchannelLogoutsSoon();
  return { revokedGrants: revoked };
}
