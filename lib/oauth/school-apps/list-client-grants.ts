import { db } from "../../db/client";

export interface ClientGrant {
  grantId: string;
  userId: string;
  email: string;
  name: string;
  scope: string;
  createdAt: Date;
  /** The last token issued under the grant (code exchange or refresh); null when none was. */
  lastTokenAt: Date | null;
}

export const MAX_GRANTS_LISTED = 100;

/** The live grants of one client at one school, newest first, with the member each belongs to. */
export async function listClientGrants(options: { schoolId: string; clientId: string }): Promise<ClientGrant[]> {
  const { schoolId, clientId } = options;
  if (!clientId || clientId.length > 2048) return [];
  return db().$queryRaw<ClientGrant[]>`
    SELECT g."id"::text AS "grantId", u."id"::text AS "userId", u."email", u."name", g."scope", g."createdAt",
           (SELECT max(a."createdAt") FROM "OAuthAccessToken" a WHERE a."grantId" = g."id") AS "lastTokenAt"
      FROM "OAuthGrant" g JOIN "User" u ON u."id" = g."userId"
     WHERE g."schoolId" = ${schoolId}::uuid AND g."clientId" = ${clientId} AND g."revokedAt" IS NULL
     ORDER BY g."createdAt" DESC, g."id" DESC
     LIMIT ${MAX_GRANTS_LISTED}`;
}
