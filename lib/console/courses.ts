// The courses a staff member may see in the console and their enrollments, read-only: every course
// of the school with "courses:read_all", else the courses they teach (CourseLecturer of the Lecturer
// linked to their account) with "courses:read_own" (docs/decisions.md, "Staff console").
import { isUuid } from "../core/ids";
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { listEnrollments, type EnrollmentPage } from "../membership/list-enrollments";
import type { ConsoleStaff } from "./access";
import { pageAtCursor } from "./paging";

const MAX_COURSES = 500;

function visibleCourses(staff: Pick<ConsoleStaff, "permissions" | "session" | "school">): Prisma.CourseWhereInput {
  const where: Prisma.CourseWhereInput = { schoolId: staff.school.id };
  if (!staff.permissions.has("courses:read_all")) where.lecturers = { some: { lecturer: { userId: staff.session.userId } } };
  return where;
}

export interface ConsoleCourse {
  id: string;
  title: string;
  status: string;
  enrollments: number;
}

/** The courses the member may see, in the school's order, each with its number of enrollments. */
export async function consoleCourses(staff: Pick<ConsoleStaff, "permissions" | "session" | "school">): Promise<ConsoleCourse[]> {
  const rows = await db().course.findMany({
    where: visibleCourses(staff),
    select: { id: true, title: true, status: true, _count: { select: { enrollments: true } } },
    orderBy: [{ position: "asc" }, { title: "asc" }, { id: "asc" }],
    take: MAX_COURSES,
  });
  return rows.map((r) => ({ id: r.id, title: r.title, status: r.status, enrollments: r._count.enrollments }));
}

export type CourseEnrollments =
  | { kind: "not_found" }
  | { kind: "forbidden" }
  /** `badCursor`: `after` was no valid cursor, so this is the first page (./paging.ts). */
  | { kind: "ok"; course: { id: string; title: string }; page: EnrollmentPage; badCursor: boolean };

/**
 * One course's enrollments, a page at a time: not_found for an id that is no course of this school
 * (another school's included), forbidden for a course of this school the member does not teach; a
 * page link whose cursor is not valid reads the first page.
 */
export async function courseEnrollments(o: { staff: Pick<ConsoleStaff, "permissions" | "session" | "school">; courseId: string; after: string | null }): Promise<CourseEnrollments> {
  if (!isUuid(o.courseId)) return { kind: "not_found" };
  const course = await db().course.findFirst({ where: { id: o.courseId, schoolId: o.staff.school.id }, select: { id: true, title: true } });
  if (!course) return { kind: "not_found" };
  const visible = await db().course.count({ where: { AND: [{ id: course.id }, visibleCourses(o.staff)] } });
  if (!visible) return { kind: "forbidden" };
  const { result: page, badCursor } = await pageAtCursor(o.after, (after) => listEnrollments({ schoolId: o.staff.school.id, filter: { courseId: course.id, after, first: 50 } }));
  return { kind: "ok", course, page, badCursor };
}
