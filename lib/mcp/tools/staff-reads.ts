import { z } from "zod";
import { QueryInputError } from "../../core/page";
import { findMember } from "../../membership/find-member";
import { listEnrollments } from "../../membership/list-enrollments";
import { MAX_MEMBER_SEARCH, listMembers } from "../../membership/list-members";
import { presentMember, type MemberWire } from "../../membership/member-record";
import { presentEnrollment } from "../../membership/presenter";
import { SUBSCRIPTION_STATES } from "../../membership/states";
import { fail, ok } from "../results";
import { enrollmentSchema, pageSizeInput, paymentSchema, unixSeconds } from "../schemas";
import { listSchoolPayments, PAYMENT_STATES } from "../../billing/list-school-payments";
import { listAuditEvents, presentAuditEvent } from "../../audit/list-audit-events";
import { AUDIT_ACTOR_TYPES } from "../../db/audit";
import { presentPayment } from "../../membership/presenter";
import type { ToolRegistrar } from "../tool-registrar";

// The staff's member and enrollment reads: the Admin API's members, member(id) and enrollments,
// over the same membership verbs, with the same bounds and messages.

type StaffReadTool = "list_members" | "get_member" | "list_enrollments" | "list_payments" | "list_audit_events";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  roles: z.array(z.string()),
  joinedAt: z.number().int(),
});
const pageInfoSchema = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });
const afterInput = z.string().max(512).optional().describe("pageInfo.endCursor of the previous page; omit for the first page");
const idInput = (description: string) => z.string().max(64).describe(description);

const auditEventSchema = z.object({
  id: z.string(),
  actorType: z.string(),
  actorId: z.string().nullable(),
  actorLabel: z.string(),
  credentialId: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  summary: z.string(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.number().int(),
});
const sinceInput = unixSeconds.optional().describe("Only rows at or after this time (Unix seconds)");
const untilInput = unixSeconds.optional().describe("Only rows before this time (Unix seconds)");
const day = (seconds: number) => new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 16);

const describeMember = (m: MemberWire) => `${m.name} <${m.email}>${m.roles.length ? ` (${m.roles.join(", ")})` : ""}, id ${m.id}`;

const more = (text: string, pageInfo: { hasNextPage: boolean; endCursor: string | null }) =>
  pageInfo.hasNextPage ? `${text}\nMore: after=${pageInfo.endCursor}` : text;

/** A bad page size, cursor or filter is the caller's to fix: a tool error with the Admin API's message. */
async function reading(run: () => Promise<ReturnType<typeof ok>>): Promise<ReturnType<typeof ok>> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof QueryInputError) return fail(err.message);
    throw err;
  }
}

export function registerStaffReadTools(tool: ToolRegistrar<StaffReadTool>) {
  tool(
    "list_members",
    {
      title: "List members (staff)",
      description:
        "Staff only. The school's members in the order they joined, searched by email or name prefix and filtered by a subscription's plan and state; first: 1 to 100 (default 50); after: the previous page's endCursor.",
      inputSchema: {
        search: z
          .string()
          .max(MAX_MEMBER_SEARCH)
          .optional()
          .describe(`Only members whose email or name starts with this text (case-insensitive, at most ${MAX_MEMBER_SEARCH} characters)`),
        planId: idInput("Only members with a subscription to this plan (an id from list_membership_plans)").optional(),
        state: z.enum(SUBSCRIPTION_STATES as [string, ...string[]]).optional().describe("Only members with a subscription in this state"),
        first: pageSizeInput,
        after: afterInput,
      },
      outputSchema: { members: z.array(memberSchema), pageInfo: pageInfoSchema },
      annotations: { title: "List members", ...READ_ONLY },
    },
    async (args, ctx) =>
      reading(async () => {
        const page = await listMembers({ schoolId: ctx.school.id, filter: args, now: ctx.now() });
        const members = page.nodes.map(presentMember);
        const text = members.length ? members.map((m) => `- ${describeMember(m)}`).join("\n") : "No member matches.";
        return ok({ members, pageInfo: page.pageInfo }, more(text, page.pageInfo));
      }),
  );

  tool(
    "get_member",
    {
      title: "Get a member (staff)",
      description: "Staff only. One member of the school by user id (from list_members or a subscription's user); member is null when nobody with this id is a member here.",
      inputSchema: { id: idInput("The member's user id (UUID, at most 64 characters)") },
      outputSchema: { member: memberSchema.nullable() },
      annotations: { title: "Get a member", ...READ_ONLY },
    },
    async (args, ctx) => {
      const m = await findMember({ schoolId: ctx.school.id, id: args.id });
      const member = m && presentMember(m);
      return ok({ member }, member ? describeMember(member) : "No member of this school has this id.");
    },
  );

  tool(
    "list_enrollments",
    {
      title: "List enrollments (staff)",
      description:
        "Staff only. The school's course enrollments, oldest first, filtered by member and/or course; first: 1 to 100 (default 50); after: the previous page's endCursor.",
      inputSchema: {
        userId: idInput("Only this member's enrollments (a member id from list_members)").optional(),
        courseId: idInput("Only enrollments in this course (a course id)").optional(),
        first: pageSizeInput,
        after: afterInput,
      },
      outputSchema: { enrollments: z.array(enrollmentSchema), pageInfo: pageInfoSchema },
      annotations: { title: "List enrollments", ...READ_ONLY },
    },
    async (args, ctx) =>
      reading(async () => {
        const page = await listEnrollments({ schoolId: ctx.school.id, filter: args });
        const enrollments = page.nodes.map(presentEnrollment);
        const text = enrollments.length
          ? enrollments.map((e) => `- ${e.user.email} in ${e.course.title}, since ${new Date(e.createdAt * 1000).toISOString().slice(0, 10)}, id ${e.id}`).join("\n")
          : "No enrollment matches.";
        return ok({ enrollments, pageInfo: page.pageInfo }, more(text, page.pageInfo));
      }),
  );

  tool(
    "list_payments",
    {
      title: "List payments (staff)",
      description:
        "Staff only. The school's payments, newest first, filtered by state, member, subscription and time; first: 1 to 100 (default 50); after: the previous page's endCursor.",
      inputSchema: {
        state: z.enum(PAYMENT_STATES).optional().describe("Only payments in this state"),
        userId: idInput("Only this member's payments (a member id from list_members)").optional(),
        subscriptionId: idInput("Only this subscription's payments (a subscription id)").optional(),
        since: sinceInput,
        until: untilInput,
        first: pageSizeInput,
        after: afterInput,
      },
      outputSchema: { payments: z.array(paymentSchema), pageInfo: pageInfoSchema },
      annotations: { title: "List payments", ...READ_ONLY },
    },
    async (args, ctx) =>
      reading(async () => {
        const page = await listSchoolPayments({ schoolId: ctx.school.id, filter: args });
        const payments = page.nodes.map(presentPayment);
        const text = payments.length
          ? payments.map((p) => `- ${p.amount} ${p.currency} ${p.state}, ${day(p.createdAt)}, ${p.subscriptionId ? `subscription ${p.subscriptionId}` : `one-time: ${p.description ?? ""}`}, id ${p.id}`).join("\n")
          : "No payment matches.";
        return ok({ payments, pageInfo: page.pageInfo }, more(text, page.pageInfo));
      }),
  );

  tool(
    "list_audit_events",
    {
      title: "List audit log (staff)",
      description:
        "Staff only. The school's audit log (who changed what, with which credential, when), newest first, filtered by actor type, action, target and time; first: 1 to 100 (default 50); after: the previous page's endCursor.",
      inputSchema: {
        actorType: z.enum(AUDIT_ACTOR_TYPES).optional().describe("Only changes by this kind of actor"),
        action: z.string().max(200).optional().describe("Only this action, e.g. subscription.cancel"),
        targetId: z.string().max(200).optional().describe("Only changes to this target (a subscription, payment, member, endpoint, key or client id)"),
        since: sinceInput,
        until: untilInput,
        first: pageSizeInput,
        after: afterInput,
      },
      outputSchema: { auditEvents: z.array(auditEventSchema), pageInfo: pageInfoSchema },
      annotations: { title: "List audit log", ...READ_ONLY },
    },
    async (args, ctx) =>
      reading(async () => {
        const page = await listAuditEvents({ schoolId: ctx.school.id, filter: args });
        const auditEvents = page.nodes.map(presentAuditEvent);
        const text = auditEvents.length
          ? auditEvents.map((e) => `- ${day(e.createdAt)} ${e.action} ${e.targetType} ${e.targetId ?? ""} by ${e.actorType} ${e.actorLabel}`).join("\n")
          : "No audit row matches.";
        return ok({ auditEvents, pageInfo: page.pageInfo }, more(text, page.pageInfo));
      }),
  );
}
