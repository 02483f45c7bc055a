import type { Tx } from "../tokens";
import { isMetadataDocumentClientId } from "../cimd";
import { formatScope, parseScope } from "../scopes";

/** One connected app as a member sees it: every live grant of one client at one school, together. */
export interface MemberGrant {
  clientId: string;
  /** The registered client's name; for a metadata-document client, the host its client_id names. */
  clientName: string;
  /** The host of a Client ID Metadata Document client (what the consent page showed), else null. */
  clientHost: string | null;
  /** The union of the scopes of the live grants, sorted. */
  scope: string;
  /** The first authorization of this client by this member at this school that is still live. */
  firstUsedAt: Date;
  /** The last time the client obtained tokens (code exchange or refresh), or the first use when it never did. */
  lastUsedAt: Date;
  /** The live grants behind this entry (revoking the entry ends them all). */
  grantIds: string[];
}

interface Row {
  grantId: string;
  clientId: string;
  scope: string;
  createdAt: Date;
  lastTokenAt: Date | null;
  clientName: string | null;
}

/**
 * The apps a member has connected at a school (the account pages and the staff console show this
 * list): live grants only (not revoked, and still able to produce an access token: a live refresh
 * token or access token, or a code not yet redeemed), one entry per client, newest use first.
 * "Last use" is the last token issuance, which the token endpoint records anyway: resource calls
 * with an access token write nothing (a write per bearer call would cost every API request).
 */
export async function listMemberGrants(options: { db: Tx; schoolId: string; userId: string; now: Date }): Promise<MemberGrant[]> {
  const { db, schoolId, userId, now } = options;
  const rows = await db.$queryRaw<Row[]>`
    SELECT g."id"::text AS "grantId", g."clientId", g."scope", g."createdAt",
           (SELECT max(a."createdAt") FROM "OAuthAccessToken" a WHERE a."grantId" = g."id") AS "lastTokenAt",
           c."name" AS "clientName"
      FROM "OAuthGrant" g
      LEFT JOIN "OAuthClient" c ON c."clientId" = g."clientId" AND c."revokedAt" IS NULL
     WHERE g."schoolId" = ${schoolId}::uuid AND g."userId" = ${userId}::uuid AND g."revokedAt" IS NULL
       AND (EXISTS (SELECT 1 FROM "OAuthRefreshToken" r WHERE r."grantId" = g."id" AND r."revokedAt" IS NULL AND r."rotatedAt" IS NULL AND (r."expiresAt" IS NULL OR r."expiresAt" > ${now}))
         OR EXISTS (SELECT 1 FROM "OAuthAccessToken" a WHERE a."grantId" = g."id" AND a."revokedAt" IS NULL AND a."expiresAt" > ${now})
         OR EXISTS (SELECT 1 FROM "OAuthAuthorizationCode" k WHERE k."grantId" = g."id" AND k."consumedAt" IS NULL AND k."expiresAt" > ${now}))
     ORDER BY g."createdAt", g."id"`;
  const byClient = new Map<string, MemberGrant>();
  for (const row of rows) {
    const cimd = isMetadataDocumentClientId(row.clientId);
    // A registered client revoked since (its grants went with it) cannot appear; a metadata-document
    // client has no row, and its host is the one thing the member was shown and can check.
    if (!cimd && row.clientName === null) continue;
    const host = cimd ? hostOf(row.clientId) : null;
    const last = row.lastTokenAt && row.lastTokenAt > row.createdAt ? row.lastTokenAt : row.createdAt;
    const entry = byClient.get(row.clientId);
    if (!entry) {
      byClient.set(row.clientId, {
        clientId: row.clientId,
        clientName: row.clientName ?? host ?? row.clientId,
        clientHost: host,
        scope: formatScope(parseScope(row.scope)),
        firstUsedAt: row.createdAt,
        lastUsedAt: last,
        grantIds: [row.grantId],
      });
      continue;
    }
    entry.scope = formatScope([...parseScope(entry.scope), ...parseScope(row.scope)]);
    if (last > entry.lastUsedAt) entry.lastUsedAt = last;
    entry.grantIds.push(row.grantId);
  }
  return [...byClient.values()].sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime() || a.clientId.localeCompare(b.clientId));
}

function hostOf(clientId: string): string | null {
  try {
    return new URL(clientId).host;
  } catch {
    return null;
  }
}
