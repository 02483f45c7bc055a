import { recordAudit, type AuditActor } from "../../db/audit";
import { db } from "../../db/client";
import { failure, success, type Payload } from "../../db/write-transaction";
import { deliverBackchannelLogoutsSoon } from "../../oidc/deliver-backchannel-logouts";
import { enqueueBackchannelLogouts } from "../../oidc/enqueue-backchannel-logouts";
import { securityEvent } from "../../security/events";
import { isMetadataDocumentClientId } from "../cimd";
import { revokeOAuthClient } from "../client-admin/revoke-client";
import { revokeGrant } from "../tokens";
import { APP_NOT_FOUND } from "./app-input";

/**
 * Revokes an app at this school. The school's own client is revoked outright (unknown to every
 * endpoint; every grant, token and remembered consent of it ends: ../client-admin/revoke-client.ts).
 * A platform or vendor client, or a metadata document, is not the school's to revoke everywhere:
 * its grants, tokens and consents at this school end, and its clients are told (Back-Channel
 * Logout) when they registered for it. Revoking again changes nothing.
 */
export async function revokeSchoolApp(options: { schoolId: string; input: { clientId: string }; now: Date; actor: AuditActor }): Promise<Payload<{ clientId: string; revokedGrants: number }>> {
  const { schoolId, input, now, actor } = options;
  const clientId = input.clientId;
  if (!clientId || clientId.length > 2048) return failure(APP_NOT_FOUND);
  const row = await db().oAuthClient.findUnique({ where: { clientId } });
  if (row && row.schoolId === schoolId) {
    const r = await revokeOAuthClient({ db: db(), clientId, now, actor });
    securityEvent("oauth.client_revoked", { client_id: clientId, school_id: schoolId, actor: "staff", grants: r.grants });
    return success({ clientId, revokedGrants: r.grants });
  }
  if (row ? row.schoolId !== null : !isMetadataDocumentClientId(clientId)) return failure(APP_NOT_FOUND);
  const result = await db().$transaction(async (tx) => {
    const grants = await tx.oAuthGrant.findMany({ where: { schoolId, clientId, revokedAt: null }, select: { id: true } });
    const seen = grants.length || (await tx.oAuthGrant.count({ where: { schoolId, clientId } }));
    for (const g of grants) await revokeGrant(tx, g.id, now);
    const notified = await enqueueBackchannelLogouts(tx, { scope: { grantIds: grants.map((g) => g.id) }, now });
    await tx.oAuthConsent.deleteMany({ where: { schoolId, clientId } });
    if (grants.length) {
      const summary = { clientId: clientId.slice(0, 200), revokedGrants: grants.length };
      await recordAudit(tx, { actor, now, entry: { schoolId, action: "oauth_client.revoke_grants", target: { type: "oauth_client", id: clientId.slice(0, 200) }, summary } });
    }
    return { seen, revoked: grants.length, notified };
  });
  // A client that never had a grant here is none of the school's apps.
  if (!result.seen) return failure(APP_NOT_FOUND);
  if (result.revoked) securityEvent("oauth.grant_revoked", { client_id: clientId.slice(0, 200), school_id: schoolId, actor: "staff", grants: result.revoked });
  if (result.notified) deliverBackchannelLogoutsSoon();
  return success({ clientId, revokedGrants: result.revoked });
}
