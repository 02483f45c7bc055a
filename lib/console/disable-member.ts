// Disabling a member at one school (staff console): what "disabled" means, in this order:
// 1. the membership is marked (SchoolMembership.disabledAt): the school's console and account pages
//    refuse the member like a non-member, and signing in on the school's origins is refused
//    (lib/auth/config.ts asks isMembershipDisabled) with the wrong-password answer;
// 2. every live session of the member on the school's origins ends, with Back-Channel Logout to the
//    apps they signed in to there (endMemberSessions);
// 3. every OAuth grant of the member at the school is revoked (its access and refresh tokens die
//    with it, revokeMemberGrant), so apps and agents lose access too.
// The account itself (the same email at other schools) is untouched. Enabling clears the mark only:
// the member signs in again and apps ask for consent again.
import { db } from "../db/client";
import { endMemberSessions } from "../oidc/end-member-sessions";
import { revokeMemberGrant } from "../oauth/member-grants/revoke-member-grant";
import { memberSchoolOrigins, type SchoolHosts } from "./school-sessions";

export const MEMBER_NOT_FOUND = "Member not found";
export const CANNOT_DISABLE_SELF = "You cannot disable yourself";
export const CANNOT_DISABLE_OWNER = "An owner cannot be disabled here";

export type DisableResult = { ok: true; already: boolean; sessions: number; apps: number } | { ok: false; error: string };

export async function disableMember(o: { school: SchoolHosts & { id: string }; userId: string; actorUserId: string; now: Date; origin?: string }): Promise<DisableResult> {
  if (o.userId === o.actorUserId) return { ok: false, error: CANNOT_DISABLE_SELF };
  const membership = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: o.school.id, userId: o.userId } }, select: { id: true, roles: true, disabledAt: true } });
  if (!membership) return { ok: false, error: MEMBER_NOT_FOUND };
  if (membership.roles.includes("owner")) return { ok: false, error: CANNOT_DISABLE_OWNER };
  // Marked first: from here on no new session or grant of the member at this school can be used.
  const marked = await db().schoolMembership.updateMany({ where: { id: membership.id, disabledAt: null }, data: { disabledAt: o.now } });
  const origins = await memberSchoolOrigins({ school: o.school, userId: o.userId, now: o.now, alsoOrigin: o.origin });
  const { sessions } = origins.length ? await endMemberSessions({ userId: o.userId, schoolId: o.school.id, origins, now: o.now, reason: "member_disabled" }) : { sessions: 0 };
  const clients = await db().oAuthGrant.findMany({ where: { schoolId: o.school.id, userId: o.userId, revokedAt: null }, select: { clientId: true }, distinct: ["clientId"] });
  let apps = 0;
  for (const { clientId } of clients) {
    const { revokedGrants } = await revokeMemberGrant({ db: db(), schoolId: o.school.id, userId: o.userId, clientId, now: o.now, actor: "staff" });
    if (revokedGrants) apps++;
  }
  return { ok: true, already: marked.count === 0, sessions, apps };
}

export async function enableMember(o: { schoolId: string; userId: string }): Promise<{ ok: true; already: boolean } | { ok: false; error: string }> {
  const membership = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: o.schoolId, userId: o.userId } }, select: { id: true } });
  if (!membership) return { ok: false, error: MEMBER_NOT_FOUND };
  const { count } = await db().schoolMembership.updateMany({ where: { id: membership.id, disabledAt: { not: null } }, data: { disabledAt: null } });
  return { ok: true, already: count === 0 };
}
