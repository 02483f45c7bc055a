import { toUnixSeconds } from "../clock";

/** A person as a member of one school: the user, their roles there and when they joined. */
export interface MemberRecord {
  /** The user's id: the id the Admin API's subscriptions and enrollments name the member by. */
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** Built-in and school-defined role names at this school. */
  roles: string[];
  /** When the person became a member of the school (the membership row's creation). */
  joinedAt: Date;
  /** The membership row's id: with joinedAt, the page position. */
  membershipId: string;
}

/** The wire shape every transport shows (Admin API Member, MCP tools): timestamps in Unix seconds. */
export function presentMember(m: MemberRecord) {
  return { id: m.id, email: m.email, name: m.name, emailVerified: m.emailVerified, roles: m.roles, joinedAt: toUnixSeconds(m.joinedAt)! };
}

export type MemberWire = ReturnType<typeof presentMember>;
