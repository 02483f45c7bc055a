import type { Db } from "../db/client";
import { BUILT_IN_ROLES } from "../core/roles";
import { SchoolCommandError } from "./errors";
import { findSchoolByRef } from "./find-school";
import { issuePasswordSetupToken } from "../auth/password-setup";
import { mailNewMember } from "../membership/users";
import { emailSchema, zodProblem } from "./rules";

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
export async function addMember(options: { db: Db; school: string; email: string; name?: string; role: string; now: Date }) {
  const email = emailSchema.safeParse(options.email);
  if (!email.success) throw new SchoolCommandError(zodProblem("--email", email.error));
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  const custom = await options.db.schoolRole.findMany({ where: { schoolId: school.id }, select: { name: true } });
  const allowed = [...BUILT_IN_ROLES, ...custom.map((r) => r.name)];
  if (!allowed.includes(options.role)) {
    throw new SchoolCommandError(`unknown role "${options.role}"; choose from ${allowed.join(", ")}`);
  }
  const member = await options.db.$transaction((tx) =>
    ensureMember({ tx, schoolId: school.id, email: email.data, name: options.name, roles: [options.role], now: options.now }),
  );
  return { school, ...member };
}
