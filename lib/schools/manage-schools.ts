import { forgetApiKeys } from "../credentials/api-key-cache";
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

/** Disables (or, with `enabled: true`, re-enables) a school. Nothing is deleted. */
export async function setSchoolEnabled(options: { db: Db; school: string; enabled: boolean; now: Date }) {
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  const already = options.enabled ? school.disabledAt === null : school.disabledAt !== null;
  if (already) return { school, changed: false };
  const updated = await options.db.school.update({
    where: { id: school.id },
    data: { disabledAt: options.enabled ? null : options.now },
  });
  // A disabled school's API keys fail at once here (elsewhere within the key cache's bound).
  forgetApiKeys();
  return { school: updated, changed: true };
}

/** Serves a school on its own host name too; null removes it. */
export async function setCustomDomain(options: { db: Db; school: string; host: string | null; platformDomain: string }) {
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  let host: string | null = null;
  if (options.host !== null) {
    const checked = customDomainProblem(options.host, options.platformDomain);
    if ("problem" in checked) throw new SchoolCommandError(checked.problem);
    host = checked.host;
  }
  try {
    return await options.db.school.update({ where: { id: school.id }, data: { customDomain: host } });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new SchoolCommandError(`${host} is already the domain of another school`);
    }
    throw err;
  }
}
