import { forgetApiKeys } from "../credentials/api-key-cache";
import { recordAudit, type AuditActor } from "../db/audit";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { SchoolCommandError } from "./errors";
import { findSchoolByRef } from "./find-school";
import { customDomainProblem } from "./rules";

export async function listSchools(options: { db: Db }) {
  return options.db.school.findMany({
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      subdomain: true,
      customDomain: true,
      name: true,
      disabledAt: true,
      _count: { select: { memberships: true, courses: true } },
    },
  });
}

/**
 * Disables (or, with `enabled: true`, re-enables) a school. Nothing is deleted. Audited
 * (school.disable, school.enable) in the transaction that changes it; a school already in that
 * state is left alone and writes no row.
 */
export async function setSchoolEnabled(options: { db: Db; school: string; enabled: boolean; now: Date; actor: AuditActor }) {
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  const updated = await options.db.$transaction(async (tx) => {
    // Conditional on the state read, so two commands at once change (and audit) it once.
    const { count } = await tx.school.updateMany({
      where: { id: school.id, disabledAt: options.enabled ? { not: null } : null },
      data: { disabledAt: options.enabled ? null : options.now },
    });
    if (!count) return null;
    const after = await tx.school.findUniqueOrThrow({ where: { id: school.id } });
    const summary = { disabledAt: { from: school.disabledAt, to: after.disabledAt } };
    await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: school.id, action: options.enabled ? "school.enable" : "school.disable", target: { type: "school", id: school.id }, summary } });
    return after;
  });
  if (!updated) return { school, changed: false };
  // A disabled school's API keys fail at once here (elsewhere within the key cache's bound).
  forgetApiKeys();
  return { school: updated, changed: true };
}

/** Serves a school on its own host name too; null removes it. Audited (school.set_domain) when it changes. */
export async function setCustomDomain(options: { db: Db; school: string; host: string | null; platformDomain: string; now: Date; actor: AuditActor }) {
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  let host: string | null = null;
  if (options.host !== null) {
    const checked = customDomainProblem(options.host, options.platformDomain);
    if ("problem" in checked) throw new SchoolCommandError(checked.problem);
    host = checked.host;
  }
  try {
    return await options.db.$transaction(async (tx) => {
      const updated = await tx.school.update({ where: { id: school.id }, data: { customDomain: host } });
      if (school.customDomain !== updated.customDomain) {
        const summary = { customDomain: { from: school.customDomain, to: updated.customDomain } };
        await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: school.id, action: "school.set_domain", target: { type: "school", id: school.id }, summary } });
      }
      return updated;
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new SchoolCommandError(`${host} is already the domain of another school`);
    }
    throw err;
  }
}
