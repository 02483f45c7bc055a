// The Admin API's member and enrollment reads: `members`, `member(id)`, `enrollments`. A block of
// its own (like event-types.ts) over the membership verbs the MCP staff tools and the staff console
// call too; same permission rule, page sizes, cursors and cost accounting as `subscriptions`.
import { now as clockNow } from "../clock";
import { findMember } from "../membership/find-member";
import { listEnrollments, type EnrollmentFilter } from "../membership/list-enrollments";
import { listMembers, type MemberFilter } from "../membership/list-members";
import { presentMember } from "../membership/member-record";
import { presentEnrollment } from "../membership/presenter";
import type { AdminContext } from "./context";
import { inputError, requireQueryPermission } from "./query-guards";

export const memberQueriesTypeDefs = /* GraphQL */ `
  extend type Query {
    "The school's members (everyone who joined it: by a subscription, an enrollment or a staff role), in the order they joined, a page at a time: pass pageInfo.endCursor as after for the next page."
    members(
      "Page size: 1 to 100 (default 50); the operation's cost is counted with it."
      first: Int
      "The endCursor of the previous page; omit it for the first page."
      after: String
      "Only members whose email or name starts with this text (case-insensitive, at most 254 characters; blank: no filter)."
      search: String
      "Only members with a subscription to this plan (a MembershipPlan id); with state, one subscription must match both."
      planId: String
      "Only members with a subscription in this state: active, incomplete, incomplete_expired, trialing, past_due, canceled or expired."
      state: String
    ): MemberConnection
    "One member of the school by user id; null when the id is unknown or the person is not a member of this school (another school's members are not visible)."
    member(
      "The member's user id (UUID), as Member.id, User.id or Subscription.user.id."
      id: String!
    ): Member
    "The school's course enrollments, oldest first, a page at a time: pass pageInfo.endCursor as after for the next page."
    enrollments(
      "Page size: 1 to 100 (default 50); the operation's cost is counted with it."
      first: Int
      "The endCursor of the previous page; omit it for the first page."
      after: String
      "Only this member's enrollments (a Member id)."
      userId: String
      "Only enrollments in this course (a Course id)."
      courseId: String
    ): EnrollmentConnection
  }

  "A person who is a member of the school, with their roles there."
  type Member {
    "The member's user id (UUID): pass it as member(id), or as userId to enrollments."
    id: String!
    "The member's email address (lowercase): pass it as email to subscriptions."
    email: String!
    "The member's display name."
    name: String!
    "True once the member has confirmed their email address."
    emailVerified: Boolean!
    "The member's roles at this school: owner, manager, admin, teacher, teaching_assistant, student, or a role the school defined."
    roles: [String!]!
    "When the person became a member of the school (Unix seconds)."
    joinedAt: Int!
  }

  "A page of members."
  type MemberConnection {
    "The members of this page, in the order they joined."
    nodes: [Member!]!
    "Whether more pages follow, and the cursor to ask for the next one."
    pageInfo: PageInfo!
  }

  "A page of enrollments."
  type EnrollmentConnection {
    "The enrollments of this page, oldest first."
    nodes: [Enrollment!]!
    "Whether more pages follow, and the cursor to ask for the next one."
    pageInfo: PageInfo!
  }
`;

export const memberQueriesResolvers = {
  Query: {
    members: (_: unknown, args: MemberFilter, ctx: AdminContext) => {
      requireQueryPermission(ctx, "members");
      return inputError(async () => {
        const page = await listMembers({ schoolId: ctx.credential.schoolId, filter: args, now: clockNow() });
        return { nodes: page.nodes.map(presentMember), pageInfo: page.pageInfo };
      });
    },
    member: async (_: unknown, args: { id: string }, ctx: AdminContext) => {
      requireQueryPermission(ctx, "member");
      const m = await findMember({ schoolId: ctx.credential.schoolId, id: args.id });
      return m && presentMember(m);
    },
    enrollments: (_: unknown, args: EnrollmentFilter, ctx: AdminContext) => {
      requireQueryPermission(ctx, "enrollments");
      return inputError(async () => {
        const page = await listEnrollments({ schoolId: ctx.credential.schoolId, filter: args });
        return { nodes: page.nodes.map(presentEnrollment), pageInfo: page.pageInfo };
      });
    },
  },
};
