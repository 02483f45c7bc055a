// Disabling a member at one school (staff console): what "disabled" means, in this order:
// 1. the membership is marked (SchoolMembership.disabledAt): the school's console and account pages
//    refuse the member like a non-member, and signing in on the school's origins is refused
//    (lib/auth/config.ts asks isMembershipDisabled) with the wrong-password answer;
// 2. every live session of the member on the school's origins ends, with Back-Channel Logout to the
//    apps they signed in to there (endMemberSessions);
// 3. every OAuth grant of the member at the school is revoked (its access and refresh tokens die
//    with it, revokeMemberGrant), so apps and agents lose access too.
// The account itself (the same email at other schools) is untouched. Enabling clears the mark only:
// the member signs in again and apps ask for consent again. Both are audited (member.disable,
// member.enable) in the transaction that changes the mark; each app disconnected writes its own
// member.disconnect_app row.
import { recordAudit, type AuditActor } from "../db/audit";
import { db } from "../db/client";
import { endMemberSessions } from "../oidc/end-member-sessions";
import { revokeMemberGrant } from "../oauth/member-grants/revoke-member-grant";
import { memberSchoolOrigins, type SchoolHosts } from "./school-sessions";

export const MEMBER_NOT_FOUND = "Member not found";
export const CANNOT_DISABLE_SELF = "You cannot disable yourself";
export const CANNOT_DISABLE_OWNER = "An owner cannot be disabled here";

export type DisableResult = { ok: true; already: boolean; sessions: number; apps: number } | { ok: false; error: string };

export async function disableMember(o: { school: SchoolHosts & { id: string }; userId: string; actorUserId: string; now: Date; origin?: string; actor: AuditActor }): Promise<DisableResult> {
  if (o.userId === o.actorUserId) return { ok: false, error: CANNOT_DISABLE_SELF };
  const membership = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: o.school.id, userId: o.userId } }, select: { id: true, roles: true, disabledAt: true } });
  if (!membership) return { ok: false, error: MEMBER_NOT_FOUND };
  if (membership.roles.includes("owner")) return { ok: false, error: CANNOT_DISABLE_OWNER };
  // Marked first: from here on no new session or grant of the member at this school can be used.
  const marked = await db().$transaction(async (tx) => {
    const r = await tx.schoolMembership.updateMany({ where: { id: membership.id, disabledAt: null }, data: { disabledAt: o.now } });
    const entry = { schoolId: o.school.id, action: "member.disable", target: { type: "member", id: o.userId }, summary: { disabledAt: { from: null, to: o.now } } };
    if (r.count) await recordAudit(tx, { actor: o.actor, now: o.now, entry });
    return r;
  });
  const origins = await memberSchoolOrigins({ school: o.school, userId: o.userId, now: o.now, alsoOrigin: o.origin });
  const { sessions } = origins.length ? await endMemberSessions({ userId: o.userId, schoolId: o.school.id, origins, now: o.now, reason: "member_disabled" }) : { sessions: 0 };
  const clients = await db().oAuthGrant.findMany({ where: { schoolId: o.school.id, userId: o.userId, revokedAt: null }, select: { clientId: true }, distinct: ["clientId"] });
  let apps = 0;
  for (const { clientId } of clients) {
    const { revokedGrants } = await revokeMemberGrant({ db: db(), schoolId: o.school.id, userId: o.userId, clientId, now: o.now, actor: o.actor });
    if (revokedGrants) apps++;
  }
  return { ok: true, already: marked.count === 0, sessions, apps };
}

export async function enableMember(o: { schoolId: string; userId: string; now: Date; actor: AuditActor }): Promise<{ ok: true; already: boolean } | { ok: false; error: string }> {
  const membership = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: o.schoolId, userId: o.userId } }, select: { id: true, disabledAt: true } });
  if (!membership) return { ok: false, error: MEMBER_NOT_FOUND };
  const count = await db().$transaction(async (tx) => {
    const r = await tx.schoolMembership.updateMany({ where: { id: membership.id, disabledAt: { not: null } }, data: { disabledAt: null } });
    const entry = { schoolId: o.schoolId, action: "member.enable", target: { type: "member", id: o.userId }, summary: { disabledAt: { from: membership.disabledAt, to: null } } };
    if (r.count) await recordAudit(tx, { actor: o.actor, now: o.now, entry });
    return r.count;
  });
  return { ok: true, already: count === 0 };
}
