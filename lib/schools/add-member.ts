import type { Db } from "../db/client";
import { BUILT_IN_ROLES } from "../core/roles";
import { SchoolCommandError } from "./errors";
import { findSchoolByRef } from "./find-school";
import { issuePasswordSetupToken } from "../auth/password-setup";
import { mailNewMember } from "../membership/users";
import { emailSchema, zodProblem } from "./rules";
import { recordAudit, type AuditActor } from "../db/audit";

type Tx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/**
 * Adds roles to a user's membership of a school, creating the user (without a password) and the
 * membership when needed. A user without a password gets a one-time setup token.
 */
export async function ensureMember(options: {
  tx: Tx;
  schoolId: string;
  email: string;
  name?: string;
  roles: string[];
  now: Date;
}) {
  const { tx, schoolId, email, now } = options;
  const existing = await tx.user.findUnique({ where: { email } });
  const user = existing ?? (await tx.user.create({ data: { email, name: options.name?.trim() || email.split("@")[0]! } }));
  const membership = await tx.schoolMembership.findUnique({ where: { schoolId_userId: { schoolId, userId: user.id } } });
  const roles = [...new Set([...(membership?.roles ?? []), ...options.roles])];
  await tx.schoolMembership.upsert({
    where: { schoolId_userId: { schoolId, userId: user.id } },
    create: { schoolId, userId: user.id, roles },
    update: { roles },
  });
  const passwordSetup = user.passwordHash ? null : await issuePasswordSetupToken({ tx, userId: user.id, now });
  // The link printed by the CLI is mailed too (a welcome mail with a link of its own; using either
  // spends both), and a new account gets its verification link.
  if (!membership) await mailNewMember(tx, { schoolId, user, accountCreated: !existing, now });
  return { user, created: !existing, roles, passwordSetup };
}

/** `school add-member`: validates the role against the built-in and the school's custom roles. */
export async function addMember(options: { db: Db; school: string; email: string; name?: string; role: string; now: Date; actor: AuditActor }) {
  const email = emailSchema.safeParse(options.email);
  if (!email.success) throw new SchoolCommandError(zodProblem("--email", email.error));
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  const custom = await options.db.schoolRole.findMany({ where: { schoolId: school.id }, select: { name: true } });
  const allowed = [...BUILT_IN_ROLES, ...custom.map((r) => r.name)];
  if (!allowed.includes(options.role)) {
    throw new SchoolCommandError(`unknown role "${options.role}"; choose from ${allowed.join(", ")}`);
  }
  const member = await options.db.$transaction(async (tx) => {
    const before = await tx.schoolMembership.findFirst({ where: { schoolId: school.id, user: { email: email.data } }, select: { roles: true } });
    const ensured = await ensureMember({ tx, schoolId: school.id, email: email.data, name: options.name, roles: [options.role], now: options.now });
    const from = before?.roles ?? null;
    if (!from || from.length !== ensured.roles.length) {
      const summary = { email: ensured.user.email, userCreated: ensured.created, roles: { from, to: ensured.roles } };
      const entry = { schoolId: school.id, action: from ? "member.add_role" : "member.create", target: { type: "member", id: ensured.user.id }, summary };
      await recordAudit(tx, { actor: options.actor, now: options.now, entry });
    }
    return ensured;
  });
  return { school, ...member };
}
