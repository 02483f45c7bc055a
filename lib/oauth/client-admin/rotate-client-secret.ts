import type { Db } from "../../db/client";
import { forgetOAuthClients } from "../client-cache";
import { CLIENT_SECRET_OVERLAP_MS, generateClientSecret, hashClientSecret } from "../client-secret";
import { OAuthClientCommandError } from "./errors";
import { recordAudit, type AuditActor } from "../../db/audit";

export interface RotateClientSecretOptions {
  db: Pick<Db, "oAuthClient" | "$transaction">;
  /** Who asks: written to the audit log with the rotation (lib/db/audit.ts); never a secret. */
  actor: AuditActor;
  clientId: string;
  now: Date;
  /** false: the old secret stops working at once (it leaked); default: it works for CLIENT_SECRET_OVERLAP_MS. */
  overlap?: boolean;
}

/**
 * Issues a new secret for a confidential client, returned once. The old one keeps working until the
 * overlap ends so a deployment can switch without downtime; a secret from an earlier rotation
 * still in its overlap is replaced (only the last one before the new secret is kept).
 */
export async function rotateClientSecret(options: RotateClientSecretOptions) {
  const { db, clientId, now } = options;
  const row = await db.oAuthClient.findUnique({ where: { clientId } });
  if (!row) throw new OAuthClientCommandError(`no OAuth client "${clientId}"`);
  if (row.revokedAt) throw new OAuthClientCommandError(`OAuth client ${clientId} is revoked`);
  if (row.tokenEndpointAuthMethod === "none") throw new OAuthClientCommandError(`OAuth client ${clientId} is public: it has no secret to rotate`);
  const secret = generateClientSecret();
  const overlapUntil = options.overlap === false || !row.clientSecretHash ? null : new Date(now.getTime() + CLIENT_SECRET_OVERLAP_MS);
  // Conditional on the hash read above: two rotations at once cannot both keep "their" previous secret.
  const updated = await db.$transaction(async (tx) => {
    const changed = await tx.oAuthClient.updateMany({
      where: { id: row.id, clientSecretHash: row.clientSecretHash, revokedAt: null },
      data: {
        clientSecretHash: hashClientSecret(secret),
        previousClientSecretHash: overlapUntil ? row.clientSecretHash : null,
        previousClientSecretExpiresAt: overlapUntil,
      },
    });
    if (changed.count === 1 && row.schoolId) {
      const summary = { rotated: true, previousValidUntil: overlapUntil };
      await recordAudit(tx, { actor: options.actor, now, entry: { schoolId: row.schoolId, action: "oauth_client.rotate_secret", target: { type: "oauth_client", id: clientId }, summary } });
    }
    return changed;
  });
  // This process refuses the old secret (or, without overlap, at once) from its next request.
  forgetOAuthClients();
  if (updated.count !== 1) throw new OAuthClientCommandError(`OAuth client ${clientId} changed meanwhile; run the command again`);
  return { clientId, secret, previousValidUntil: overlapUntil };
}
