import { db } from "../db/client";

/**
 * Whether staff disabled this member at this school (lib/console/disable-member.ts): signing in on
 * the school's origins is then refused with the wrong-password answer, so the login page tells a
 * stranger nothing about the account.
 */
export async function isMembershipDisabled(o: { schoolId: string; userId: string }): Promise<boolean> {
  const row = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: o.schoolId, userId: o.userId } }, select: { disabledAt: true } });
  return row?.disabledAt != null;
}
