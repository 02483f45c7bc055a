import type { Db } from "../../db/client";
import { forgetOAuthClients } from "../client-cache";
import { OAuthClientCommandError } from "./errors";
import { recordAudit, type AuditActor } from "../../db/audit";

/**
 * Revokes a client at once: the client becomes unknown to every endpoint and, in the same
 * transaction, every grant, access token and refresh token issued to it is revoked and its
 * remembered consents are forgotten. Pending codes die with their grants.
 */
export async function revokeOAuthClient(options: { db: Db; clientId: string; now: Date; actor: AuditActor }) {
  const { db, clientId, now } = options;
  const result = await db.$transaction(async (tx) => {
    const row = await tx.oAuthClient.findUnique({ where: { clientId } });
    if (!row) throw new OAuthClientCommandError(`no OAuth client "${clientId}"`);
    const first = await tx.oAuthClient.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
    const grants = await tx.oAuthGrant.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } });
    const accessTokens = await tx.oAuthAccessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } });
    const refreshTokens = await tx.oAuthRefreshToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } });
    await tx.oAuthConsent.deleteMany({ where: { clientId } });
    // A platform client (no school) has no school's log to go to.
    if (first.count && row.schoolId) {
      const summary = { revokedAt: { from: null, to: now }, grants: grants.count, accessTokens: accessTokens.count, refreshTokens: refreshTokens.count };
      await recordAudit(tx, { actor: options.actor, now, entry: { schoolId: row.schoolId, action: "oauth_client.revoke", target: { type: "oauth_client", id: clientId }, summary } });
    }
    return { clientId, alreadyRevoked: first.count === 0, grants: grants.count, accessTokens: accessTokens.count, refreshTokens: refreshTokens.count };
  });
  // Committed: this process refuses the client from its next request.
  forgetOAuthClients();
  return result;
}
