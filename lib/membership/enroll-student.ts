import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { recordEvent } from "../db/outbox";
import { recordAudit, type AuditActor } from "../db/audit";
import { presentEnrollment } from "./presenter";
import type { EnrollmentRecord } from "./record-types";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { INVALID_EMAIL, findOrCreateMember, normalizeEmail } from "./users";

export interface EnrollStudentInput {
  courseId: string;
  email: string;
  name?: string | null;
}

export const COURSE_NOT_FOUND = "Course not found";

/** Enrolls a user (created when new) in one of the school's courses. An upsert: enrolling twice returns the same enrollment. */
export async function enrollStudentToCourse(options: {
  schoolId: string;
  input: EnrollStudentInput;
  now: Date;
  /** Check and compute everything, write nothing (MCP's dry_run). */
  dryRun?: boolean;
  /** Who asks: written to the audit log with the enrollment (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<EnrollmentRecord>> {
  const { schoolId, input, now, dryRun, actor } = options;
  const email = normalizeEmail(input.email);
  if (!email) return failure(INVALID_EMAIL);
  if (!isUuid(input.courseId)) return failure(COURSE_NOT_FOUND);
  const course = await db().course.findFirst({ where: { id: input.courseId, schoolId }, select: { id: true } });
  if (!course) return failure(COURSE_NOT_FOUND);
  return writeTransaction({ dryRun }, async (tx) => {
    const member = await findOrCreateMember(tx, { schoolId, email, name: input.name, now });
    if ("error" in member) return failure<EnrollmentRecord>(member.error);
    const { enrollment } = await recordEnrollment(tx, { schoolId, courseId: course.id, user: member.user, memberCreated: member.created, actor, now });
    return success(enrollment);
  });
}

/**
 * The enrollment of a member in a course inside the caller's transaction (enrollStudentToCourse,
 * a course bought at checkout): an upsert. Only the first one is a change: it writes
 * enrollment.created and its audit row; `created` says which it was.
 */
export async function recordEnrollment(
  tx: Prisma.TransactionClient,
  options: { schoolId: string; courseId: string; user: { id: string; email: string }; memberCreated: boolean; actor: AuditActor; now: Date; auditSummary?: Record<string, unknown> },
): Promise<{ enrollment: EnrollmentRecord; created: boolean }> {
  const { schoolId, courseId, user, memberCreated, actor, now } = options;
  const inserted = await tx.enrollment.createMany({ data: [{ schoolId, courseId, userId: user.id, createdAt: now }], skipDuplicates: true });
  const enrollment = await tx.enrollment.findUniqueOrThrow({ where: { courseId_userId: { courseId, userId: user.id } }, include: { course: true, user: true } });
  // Enrolling twice is not a change: only the first call reports enrollment.created and is audited.
  if (inserted.count) {
    await recordEvent(tx, { event: { schoolId, type: "enrollment.created", subjectId: enrollment.id, data: presentEnrollment(enrollment) }, now });
    const summary = { member: user.email, memberCreated, courseId, ...options.auditSummary };
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "enrollment.create", target: { type: "enrollment", id: enrollment.id }, summary } });
  }
  return { enrollment, created: inserted.count > 0 };
}
