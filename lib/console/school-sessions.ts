// A member's sessions at one school: sessions are bound to the origin they were created on, and a
// school answers on its subdomain of the platform domain and on its custom domain (any scheme or
// port). The console shows these and disabling a member ends them.
import { db } from "../db/client";
import { env } from "../env";

export interface SchoolHosts {
  subdomain: string;
  customDomain: string | null;
}

/** Whether a session's origin is one of the school's addresses. */
export function isSchoolOrigin(origin: string, school: SchoolHosts): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  const platform = env().PLATFORM_DOMAIN.toLowerCase();
  return host === `${school.subdomain}.${platform}` || (school.customDomain !== null && host === school.customDomain.toLowerCase());
}

export interface StaffSessionView {
  id: string;
  origin: string;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** The member's live sessions on the school's origins, most recently seen first (at most 50). */
export async function memberSchoolSessions(o: { school: SchoolHosts; userId: string; now: Date }): Promise<StaffSessionView[]> {
  const rows = await db().memberSession.findMany({
    where: { userId: o.userId, revokedAt: null, expiresAt: { gt: o.now } },
    select: { id: true, origin: true, userAgent: true, createdAt: true, lastSeenAt: true },
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
    take: 200,
  });
  return rows
    .filter((r) => isSchoolOrigin(r.origin, o.school))
    .slice(0, 50)
    .map((r) => ({ ...r, lastSeenAt: r.lastSeenAt ?? r.createdAt }));
}

/** The distinct origins of the member's live sessions at the school. */
export async function memberSchoolOrigins(o: { school: SchoolHosts; userId: string; now: Date; alsoOrigin?: string }): Promise<string[]> {
  const rows = await db().memberSession.findMany({ where: { userId: o.userId, revokedAt: null, expiresAt: { gt: o.now } }, select: { origin: true }, distinct: ["origin"] });
  // alsoOrigin: the origin the staff member acts on, which names this school (the bare platform host of the default school too).
  return rows.map((r) => r.origin).filter((origin) => origin === o.alsoOrigin || isSchoolOrigin(origin, o.school));
}
