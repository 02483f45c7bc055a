import type { Db } from "../../db/client";
import { forgetOAuthClients } from "../client-cache";
import { OAuthClientCommandError } from "./errors";

/**
 * Revokes a client at once: the client becomes unknown to every endpoint and, in the same
 * transaction, every grant, access token and refresh token issued to it is revoked and its
 * remembered consents are forgotten. Pending codes die with their grants.
 */
export async function revokeOAuthClient(options: { db: Db; clientId: string; now: Date }) {
  const { db, clientId, now } = options;
  const result = await db.$transaction(async (tx) => {
    const row = await tx.oAuthClient.findUnique({ where: { clientId } });
    if (!row) throw new OAuthClientCommandError(`no OAuth client "${clientId}"`);
    const first = await tx.oAuthClient.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
    const grants = await tx.oAuthGrant.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } });
    const accessTokens = await tx.oAuthAccessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } });
    const refreshTokens = await tx.oAuthRefreshToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } });
    await tx.oAuthConsent.deleteMany({ where: { clientId } });
    return { clientId, alreadyRevoked: first.count === 0, grants: grants.count, accessTokens: accessTokens.count, refreshTokens: refreshTokens.count };
  });
  // Committed: this process refuses the client from its next request.
  forgetOAuthClients();
  return result;
}
