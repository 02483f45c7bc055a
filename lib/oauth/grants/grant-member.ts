import { rowDate } from "../../db/raw";
import type { IdTokenGrant, IdTokenMember } from "../../oidc/id-token";

/**
 * A grant with its school and member, as the token endpoint's statements read them (the refresh
 * grant's and the code exchange's) in one row, under these column names: `schoolId`, `subdomain`,
 * `issuer`, `userId`, `authTime`, `sessionId`, `grantCreatedAt`, `userName`, `avatarUrl`, `email`,
 * `emailVerified`, `roles` (the member's roles in the grant's school; null without a membership).
 */
export interface GrantWithMember {
  grant: IdTokenGrant & { school: { id: string; subdomain: string } };
  /** The member, for the ID token's claims. */
  member: IdTokenMember;
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
