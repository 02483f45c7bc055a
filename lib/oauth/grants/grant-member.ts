import { rowDate } from "../../db/raw";
import type { IdTokenGrant, IdTokenMember } from "../../oidc/id-token";

/**
 * A grant with its school and member, as the token endpoint's statements read them (the refresh
 * grant's and the code exchange's) in one row, with GRANT_MEMBER_COLUMNS (`roles`: the member's
 * roles in the grant's school; null without a membership).
 */
export interface GrantWithMember {
  grant: IdTokenGrant & { school: { id: string; subdomain: string } };
  /** The member, for the ID token's claims. */
  member: IdTokenMember;
}

/**
 * The SQL the token endpoint's statements share: GRANT_MEMBER_JOINS joins the grant `g`'s school
 * `s`, user `u` and membership `m`; GRANT_MEMBER_COLUMNS selects from them exactly the columns
 * grantWithMember reads, under its names. Written once here, next to the mapper, so a column
 * cannot be renamed in one statement and not the other.
 */
export const GRANT_MEMBER_JOINS = `JOIN "School" s ON s."id" = g."schoolId"
    JOIN "User" u ON u."id" = g."userId"
    LEFT JOIN "SchoolMembership" m ON m."schoolId" = g."schoolId" AND m."userId" = g."userId"`;

export const GRANT_MEMBER_COLUMNS = `s."id"::text AS "schoolId", s."subdomain", g."issuer", g."userId"::text AS "userId", g."authTime",
       g."sessionId"::text AS "sessionId", g."createdAt" AS "grantCreatedAt",
       u."name" AS "userName", u."avatarUrl", u."email", u."emailVerified", m."roles"`;

/** The names GRANT_MEMBER_COLUMNS gives its columns (each item's last quoted identifier). */
export const GRANT_MEMBER_NAMES = GRANT_MEMBER_COLUMNS.split(",").map((item) => /"(\w+)"\s*$/.exec(item)![1]!);

/** The same columns, read back from a CTE `alias` that selected GRANT_MEMBER_COLUMNS. */
export const grantMemberColumnsOf = (alias: string): string => GRANT_MEMBER_NAMES.map((c) => `${alias}."${c}"`).join(", ");

/**
 * The access and refresh tokens a successful exchange inserts, as CTEs named `access` and
 * `refresh`, from `source` (a CTE or a join of them naming the grant as `grantId`): the values are
 * the SQL expressions given, so each statement keeps its own parameter numbers.
 */
export function insertTokenPair(source: string, v: { grantId: string; clientId: string; now: string; access: { id: string; hash: string; scope: string; audience: string; expiresAt: string }; refresh: { id: string; hash: string; scope: string; expiresAt: string } }): string {
  return `access AS (
  INSERT INTO "OAuthAccessToken" ("id", "tokenHash", "grantId", "clientId", "scope", "audience", "createdAt", "expiresAt")
  SELECT ${v.access.id}, ${v.access.hash}, ${v.grantId}, ${v.clientId}, ${v.access.scope}, ${v.access.audience}, ${v.now}, ${v.access.expiresAt} FROM ${source}
), refresh AS (
  INSERT INTO "OAuthRefreshToken" ("id", "tokenHash", "grantId", "clientId", "scope", "createdAt", "expiresAt")
  SELECT ${v.refresh.id}, ${v.refresh.hash}, ${v.grantId}, ${v.clientId}, ${v.refresh.scope}, ${v.now}, ${v.refresh.expiresAt} FROM ${source}
)`;
}

export function grantWithMember(r: Record<string, unknown>): GrantWithMember {
  return {
    grant: {
      issuer: r.issuer as string,
      school: { id: r.schoolId as string, subdomain: r.subdomain as string },
      schoolId: r.schoolId as string,
      userId: r.userId as string,
      authTime: rowDate(r.authTime),
      sessionId: (r.sessionId as string | null) ?? null,
      createdAt: rowDate(r.grantCreatedAt)!,
    },
    member: {
      id: r.userId as string,
      name: r.userName as string,
      avatarUrl: (r.avatarUrl as string | null) ?? null,
      email: r.email as string,
      emailVerified: Boolean(r.emailVerified),
      roles: (r.roles as string[] | null) ?? [],
    },
  };
}
