import { createGraphQLError, createSchema } from "graphql-yoga";
import { now as clockNow } from "../clock";
import type { AdminOperation } from "../credentials/permissions";
import { cancelSubscription, type CancelSubscriptionInput } from "../membership/cancel-subscription";
import { createSubscription, type CreateSubscriptionInput } from "../membership/create-subscription";
import { enrollStudentToCourse, type EnrollStudentInput } from "../membership/enroll-student";
import { findSubscription } from "../membership/find-subscription";
import { listCourses } from "../membership/list-courses";
import { listMembershipPlans } from "../membership/list-membership-plans";
import { listSubscriptionPayments } from "../membership/list-payments";
import { listSubscriptions, type SubscriptionFilter } from "../membership/list-subscriptions";
import { QueryInputError } from "../membership/page";
import { presentCourse, presentEnrollment, presentPayment, presentPlan, presentSubscription, type SubscriptionWire } from "../membership/presenter";
import type { Payload, SubscriptionRecord } from "../membership/records";
import { updateSubscription, type UpdateSubscriptionInput } from "../membership/update-subscription";
import type { AdminContext } from "./context";
import { UNAUTHORIZED } from "./errors";

export const typeDefs = /* GraphQL */ `
  "Timestamps are Int Unix seconds everywhere."
  type Query {
    "The school's membership plans (every status: published, hidden and draft)."
    membershipPlans: [MembershipPlan!]
    "One subscription of the school; null when it does not exist or belongs to another school."
    subscription(id: String!): Subscription
    "The school's subscriptions, oldest first. first: 1 to 100 (default 50); after: a previous page's endCursor."
    subscriptions(first: Int, after: String, planId: String, email: String, state: String): SubscriptionConnection
    "The school's courses (every status), in catalog order. first: 1 to 100 (default 50)."
    courses(first: Int): CourseConnection
  }

  type Mutation {
    createSubscription(input: AdminCreateSubscriptionInput!): AdminCreateSubscriptionPayload!
    updateSubscription(input: AdminUpdateSubscriptionInput!): AdminUpdateSubscriptionPayload!
    cancelSubscription(input: AdminCancelSubscriptionInput!): AdminCancelSubscriptionPayload!
    "Enrolls a user (created when new) in a course. Enrolling twice returns the same enrollment."
    enrollStudentToCourse(input: EnrollStudentToCourseInput!): EnrollStudentToCoursePayload!
  }

  input AdminCreateSubscriptionInput {
    email: String!
    "Required when no user has this email."
    name: String
    planId: String!
    "fixed_date and specific_length plans only."
    expireAt: Int
    "recurring plans only: end of the first period and first charge."
    initialChargeAt: Int
  }

  input AdminUpdateSubscriptionInput {
    id: String!
    currentPeriodEnd: Int!
  }

  input AdminCancelSubscriptionInput {
    id: String!
    cancelAtPeriodEnd: Boolean = true
    customEndedAt: Int
  }

  input EnrollStudentToCourseInput {
    courseId: String!
    email: String!
    name: String
  }

  type AdminCreateSubscriptionPayload {
    errors: [String!]!
    subscription: AdminSubscription
  }

  type AdminUpdateSubscriptionPayload {
    errors: [String!]!
    subscription: Subscription
  }

  type AdminCancelSubscriptionPayload {
    errors: [String!]!
    subscription: Subscription
  }

  type EnrollStudentToCoursePayload {
    errors: [String!]!
    enrollment: Enrollment
  }

  type AdminSubscription {
    id: String!
    cancelReason: String
    cancelType: String
    createdAt: Int!
    updatedAt: Int!
    currentPeriodStart: Int
    currentPeriodEnd: Int
    startAt: Int
    endAt: Int
    nextChargeDate: Int
    cancelAt: Int
    canceledAt: Int
    isCanceling: Boolean!
    isCancellable: Boolean!
    plan: MembershipPlan!
    planId: String!
    state: String!
    user: User!
  }

  type Subscription {
    id: String!
    cancelReason: String
    cancelType: String
    createdAt: Int!
    updatedAt: Int!
    currentPeriodStart: Int
    currentPeriodEnd: Int
    startAt: Int
    endAt: Int
    "Scheduled cancellation time; null when none is scheduled (and once it has taken effect)."
    cancelAt: Int
    canceledAt: Int
    isCanceling: Boolean!
    isCancellable: Boolean!
    nextChargeDate: Int
    payments: [Payment!]
    plan: MembershipPlan!
    planId: String!
    state: String!
    user: User!
  }

  type SubscriptionConnection {
    nodes: [Subscription!]!
    pageInfo: PageInfo!
  }

  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }

  type MembershipPlan {
    id: String!
    name: String!
    slug: String!
    "recurring, fixed_date, specific_length or lifetime."
    planType: String!
    isLifetime: Boolean!
    "Billing unit of recurring plans (day, week, month, year); null otherwise."
    interval: String
    intervalCount: Int!
    "Decimal amount as a string, e.g. \\"29.00\\"."
    price: String!
    "ISO 4217 code."
    currency: String!
    "Access length of specific_length plans."
    lengthCount: Int
    lengthInterval: String
    "End date of fixed_date plans."
    fixedEndAt: Int
    "published, hidden or draft."
    status: String!
  }

  type User {
    id: String!
    email: String!
    name: String!
  }

  type Payment {
    id: String!
    "Decimal amount as a string."
    amount: String!
    currency: String!
    "pending, succeeded, failed or refunded."
    state: String!
    paidAt: Int
    createdAt: Int!
  }

  type Course {
    id: String!
    slug: String!
    title: String!
    summary: String!
    "published, hidden or draft."
    status: String!
    price: String
    currency: String
  }

  type CourseConnection {
    nodes: [Course!]!
  }

  type Enrollment {
    id: String!
    createdAt: Int!
    course: Course!
    user: User!
  }
`;

function allowed(ctx: AdminContext, operation: AdminOperation): boolean {
  return ctx.credential.permissions.includes(operation);
}

// Queries have no payload to carry "Unauthorized": the field is null with a FORBIDDEN error.
function requireQueryPermission(ctx: AdminContext, operation: AdminOperation): void {
  if (!allowed(ctx, operation)) throw createGraphQLError(UNAUTHORIZED, { extensions: { code: "FORBIDDEN" } });
}

function inputError<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err: unknown) => {
    if (err instanceof QueryInputError) throw createGraphQLError(err.message, { extensions: { code: "BAD_USER_INPUT" } });
    throw err;
  });
}

// The membership domain decides; these resolvers only check the key's permission and present.
const subscriptionPayload = (p: Payload<SubscriptionRecord>) => ({
  errors: p.errors,
  subscription: p.record && presentSubscription(p.record),
});

export const resolvers = {
  Query: {
    membershipPlans: async (_: unknown, __: unknown, ctx: AdminContext) => {
      requireQueryPermission(ctx, "membershipPlans");
      return (await listMembershipPlans({ schoolId: ctx.credential.schoolId })).map(presentPlan);
    },
    subscription: async (_: unknown, args: { id: string }, ctx: AdminContext) => {
      requireQueryPermission(ctx, "subscription");
      const s = await findSubscription({ schoolId: ctx.credential.schoolId, id: args.id, now: clockNow() });
      return s && presentSubscription(s);
    },
    subscriptions: (_: unknown, args: SubscriptionFilter, ctx: AdminContext) => {
      requireQueryPermission(ctx, "subscriptions");
      return inputError(async () => {
        const page = await listSubscriptions({ schoolId: ctx.credential.schoolId, filter: args, now: clockNow() });
        return { nodes: page.nodes.map(presentSubscription), pageInfo: page.pageInfo };
      });
    },
    courses: (_: unknown, args: { first?: number | null }, ctx: AdminContext) => {
      requireQueryPermission(ctx, "courses");
      return inputError(async () => ({ nodes: (await listCourses({ schoolId: ctx.credential.schoolId, first: args.first })).map(presentCourse) }));
    },
  },
  Mutation: {
    createSubscription: async (_: unknown, args: { input: CreateSubscriptionInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "createSubscription")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await createSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow() }));
    },
    updateSubscription: async (_: unknown, args: { input: UpdateSubscriptionInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "updateSubscription")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await updateSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow() }));
    },
    cancelSubscription: async (_: unknown, args: { input: CancelSubscriptionInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "cancelSubscription")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await cancelSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow() }));
    },
    enrollStudentToCourse: async (_: unknown, args: { input: EnrollStudentInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "enrollStudentToCourse")) return { errors: [UNAUTHORIZED], enrollment: null };
      const p = await enrollStudentToCourse({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow() });
      return { errors: p.errors, enrollment: p.record && presentEnrollment(p.record) };
    },
  },
  Subscription: {
    // Only this field is resolved lazily: payments are read when a client asks for them.
    payments: async (s: SubscriptionWire) => (await listSubscriptionPayments({ subscriptionId: s.id })).map(presentPayment),
  },
};

export const adminSchema = createSchema<AdminContext>({ typeDefs, resolvers });
