import { recordAudit, type AuditActor } from "../../db/audit";
import { db } from "../../db/client";
import { success, type Payload } from "../../db/write-transaction";
import { deliverBackchannelLogoutsSoon } from "../../oidc/deliver-backchannel-logouts";
import { enqueueBackchannelLogouts } from "../../oidc/enqueue-backchannel-logouts";
import { securityEvent } from "../../security/events";
import { clearSchoolCache } from "../../tenancy/resolve-school";
import { revokeGrant } from "../tokens";

// Metadata-document client ids are URLs (../cimd.ts, isMetadataDocumentClientId); registered ids never contain "://".
const METADATA_DOCUMENT_IDS = [
  { clientId: { startsWith: "https://", mode: "insensitive" as const } },
  { clientId: { startsWith: "http://", mode: "insensitive" as const } },
];

/**
 * The school's Client ID Metadata Document setting (docs/decisions.md, "Client ID Metadata
 * Documents per school"). Off: /oauth/authorize refuses metadata-document apps at this school, its
 * discovery document says `client_id_metadata_document_supported: false`, and, in the same
 * transaction, every grant such an app holds here ends with its tokens, so "off" holds for apps
 * already connected too. On again: apps may ask members again; nothing ended comes back.
 * Audited (`school.set_cimd_allowed`) in the same transaction when the setting changed or grants
 * ended; saving the setting it already has writes no row.
 */
export async function setCimdAllowed(options: { schoolId: string; input: { allowed: boolean }; now: Date; actor: AuditActor }): Promise<Payload<{ allowed: boolean; revokedGrants: number }>> {
  const { schoolId, input, now, actor } = options;
  const result = await db().$transaction(async (tx) => {
    // Locked, so two staff switching at once are audited in the order they changed it.
    const [before] = await tx.$queryRaw<{ cimdAllowed: boolean }[]>`SELECT "cimdAllowed" FROM "School" WHERE "id" = ${schoolId}::uuid FOR UPDATE`;
    await tx.school.update({ where: { id: schoolId }, data: { cimdAllowed: input.allowed } });
    let revoked = 0;
    let notified = 0;
    if (!input.allowed) {
      const grants = await tx.oAuthGrant.findMany({ where: { schoolId, revokedAt: null, OR: METADATA_DOCUMENT_IDS }, select: { id: true } });
      for (const g of grants) await revokeGrant(tx, g.id, now);
      notified = await enqueueBackchannelLogouts(tx, { scope: { grantIds: grants.map((g) => g.id) }, now });
      await tx.oAuthConsent.deleteMany({ where: { schoolId, OR: METADATA_DOCUMENT_IDS } });
      revoked = grants.length;
    }
    if (before?.cimdAllowed !== input.allowed || revoked) {
      const summary = { cimdAllowed: { from: before?.cimdAllowed ?? null, to: input.allowed }, revokedGrants: revoked };
      await recordAudit(tx, { actor, now, entry: { schoolId, action: "school.set_cimd_allowed", target: { type: "school", id: schoolId }, summary } });
    }
    return { revoked, notified };
  });
  // The host → school cache of this process holds the old setting for up to 10 s otherwise.
  clearSchoolCache();
  securityEvent("oauth.cimd_setting_changed", { school_id: schoolId, allowed: input.allowed, grants: result.revoked });
  if (result.notified) deliverBackchannelLogoutsSoon();
  return success({ allowed: input.allowed, revokedGrants: result.revoked });
}
