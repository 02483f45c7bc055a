import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { pageSize } from "../core/page";
import { afterTimeCursor, decodeTimeCursor, encodeTimeCursor } from "../core/time-cursor";
import type { EnrollmentRecord } from "./record-types";

export interface EnrollmentFilter {
  first?: number | null;
  after?: string | null;
  /** Only this member's enrollments (a user id). */
  userId?: string | null;
  /** Only enrollments in this course. */
  courseId?: string | null;
}

export interface EnrollmentPage {
  nodes: EnrollmentRecord[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/**
 * The school's enrollments, oldest first, by (createdAt, id) cursor, with course and user; filtered
 * by member and/or course. Indexes: Enrollment(schoolId, createdAt, id), (courseId, createdAt, id),
 * (userId). An id that is not a UUID matches nothing, as an unknown one does.
 */
export async function listEnrollments(options: { schoolId: string; filter: EnrollmentFilter }): Promise<EnrollmentPage> {
  const { schoolId, filter } = options;
  const take = pageSize(filter.first);
  const where: Prisma.EnrollmentWhereInput = { schoolId };
  for (const [key, value] of [["userId", filter.userId], ["courseId", filter.courseId]] as const) {
    if (!value) continue;
    if (!isUuid(value)) return { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };
    where[key] = value;
  }
  if (filter.after) {
    Object.assign(where, afterTimeCursor(decodeTimeCursor(filter.after)));
  }
  const rows = await db().enrollment.findMany({ where, include: { course: true, user: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: take + 1 });
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeTimeCursor(last) : null } };
}
