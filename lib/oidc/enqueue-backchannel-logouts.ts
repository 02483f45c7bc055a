import { Prisma } from "../db/generated/client";
import type { Tx } from "../oauth/tokens";

/** Which grants' clients hear about a logout. */
export type BackchannelScope =
  /** The member signed out of one session: the live grants that session authorized. */
  | { sessionId: string }
  /** Grants ended by id (a member or staff disconnected an app). */
  | { grantIds: string[] }
  /** Staff ended a member's access at a school: every live grant there. */
  | { userId: string; schoolId: string };

/**
 * Writes one BackchannelLogout row per client, issuer and session to notify, in the caller's
 * transaction (so a rolled-back sign-out notifies nobody and a committed one is never lost). Only
 * grants that included `openid` (the client holds an ID token whose sub/sid the logout token
 * names) of clients that registered a backchannel_logout_uri count. Returns the rows written.
 */
export async function enqueueBackchannelLogouts(tx: Tx, options: { scope: BackchannelScope; now: Date }): Promise<number> {
  const { scope, now } = options;
  let filter: Prisma.Sql;
  if ("sessionId" in scope) filter = Prisma.sql`g."sessionId" = ${scope.sessionId}::uuid AND g."revokedAt" IS NULL`;
  else if ("grantIds" in scope) {
    if (!scope.grantIds.length) return 0;
    filter = Prisma.sql`g."id" = ANY(${scope.grantIds}::uuid[])`;
  } else filter = Prisma.sql`g."userId" = ${scope.userId}::uuid AND g."schoolId" = ${scope.schoolId}::uuid AND g."revokedAt" IS NULL`;
  return tx.$executeRaw`
    INSERT INTO "BackchannelLogout" ("id", "schoolId", "clientId", "uri", "issuer", "sub", "sid", "nextAttemptAt", "createdAt")
    SELECT gen_random_uuid(), x."schoolId", x."clientId", x."uri", x."issuer", x."sub", x."sid", ${now}, ${now}
      FROM (SELECT DISTINCT g."schoolId", g."clientId", c."backchannelLogoutUri" AS "uri", g."issuer", g."userId"::text AS "sub", g."sessionId"::text AS "sid"
              FROM "OAuthGrant" g
              JOIN "OAuthClient" c ON c."clientId" = g."clientId" AND c."revokedAt" IS NULL AND c."backchannelLogoutUri" IS NOT NULL
             WHERE ${filter} AND g."issuer" <> '' AND (' ' || g."scope" || ' ') LIKE '% openid %') x`;
}
