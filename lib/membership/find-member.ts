import { db } from "../db/client";
import { isUuid } from "../core/ids";
import type { MemberRecord } from "./member-record";

/** One member of the school by user id; null when the id is unknown, not a UUID or not a member here. */
export async function findMember(options: { schoolId: string; id: string }): Promise<MemberRecord | null> {
  const { schoolId, id } = options;
  if (!isUuid(id)) return null;
  const m = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId, userId: id } }, include: { user: true } });
  if (!m) return null;
  const { user } = m;
  return { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified, roles: m.roles, joinedAt: m.createdAt, membershipId: m.id };
}
