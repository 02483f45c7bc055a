import { db } from "../db/client";
import type { EnrollmentRecord } from "./record-types";

/** One member's enrollments at one school, oldest first. */
export function listMemberEnrollments(options: { schoolId: string; userId: string }): Promise<EnrollmentRecord[]> {
  const { schoolId, userId } = options;
  return db().enrollment.findMany({ where: { schoolId, userId }, include: { course: true, user: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
