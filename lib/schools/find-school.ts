import { isUuid } from "../core/ids";
import type { Db } from "../db/client";
import { SchoolCommandError } from "./errors";

type Reader = Pick<Db, "school">;

/** A school by id or subdomain (disabled ones included: operators manage them too). */
export async function findSchoolByRef(options: { db: Reader; ref: string }) {
  const { db, ref } = options;
  const school = isUuid(ref)
    ? await db.school.findUnique({ where: { id: ref } })
    : await db.school.findUnique({ where: { subdomain: ref.toLowerCase() } });
  if (!school) throw new SchoolCommandError(`no school with id or subdomain "${ref}"`);
  return school;
}
