import type { Prisma } from "../../db/generated/client";
import { securityEvent } from "../../security/events";
import { revokeGrant } from "../tokens";

/**
 * A member (or staff for a member) disconnects one app at one school: every live grant of that
 * client for that member there ends at once, with all of its access and refresh tokens (an
 * unredeemed code of a revoked grant is refused by the exchange), and the remembered consent goes too, so the app has to ask again. One
 * transaction: the caller passes one (`db.$transaction`) or this opens it. Returns how many grants
 * ended (0: nothing of this client was live, which the transports answer as not found).
 */
export async function revokeMemberGrant(options: {
  db: { $transaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> };
  schoolId: string;
  userId: string;
  clientId: string;
  now: Date;
  /** Who ended it, for the security log: "member" or "staff". */
  actor: "member" | "staff";
}): Promise<{ revokedGrants: number }> {
  const { schoolId, userId, clientId, now } = options;
  const revoked = await options.db.$transaction(async (tx) => {
    const grants = await tx.oAuthGrant.findMany({ where: { schoolId, userId, clientId, revokedAt: null }, select: { id: true } });
    for (const g of grants) await revokeGrant(tx, g.id, now);
    await tx.oAuthConsent.deleteMany({ where: { schoolId, userId, clientId } });
    return grants.length;
  });
  if (revoked) securityEvent("oauth.grant_revoked", { client_id: clientId.slice(0, 200), user_id: userId, school_id: schoolId, actor: options.actor, grants: revoked });
  return { revokedGrants: revoked };
}
