import { createGraphQLError, createSchema } from "graphql-yoga";
import { now as clockNow } from "../clock";
import type { AdminOperation } from "../credentials/permissions";
import type { Course } from "../db/generated/client";
import { cancelSubscription, type CancelSubscriptionInput } from "../membership/cancel-subscription";
import { createSubscription, type CreateSubscriptionInput } from "../membership/create-subscription";
import { enrollStudentToCourse, type EnrollStudentInput } from "../membership/enroll-student";
import { findSubscription } from "../membership/find-subscription";
import { listCourses } from "../membership/list-courses";
import { listMembershipPlans } from "../membership/list-membership-plans";
import { listSubscriptionRows, type SubscriptionFilter } from "../membership/list-subscriptions";
import { QueryInputError } from "../membership/page";
import {
  presentCourse,
  presentEnrollment,
  presentPayment,
  presentPlan,
  presentSubscription,
  presentSubscriptionRow,
  presentUser,
  type PlanWire,
  type SubscriptionRowWire,
} from "../membership/presenter";
import { isCancellable } from "../membership/states";
import type { Payload, SubscriptionRecord } from "../membership/records";
import { updateSubscription, type UpdateSubscriptionInput } from "../membership/update-subscription";
import { createWebhookEndpoint, type CreateEndpointInput } from "../webhooks/create-endpoint";
import { deleteWebhookEndpoint } from "../webhooks/delete-endpoint";
import { listWebhookDeliveries, type DeliveryFilter } from "../webhooks/list-deliveries";
import { listWebhookEndpoints } from "../webhooks/list-endpoints";
import { presentDelivery, presentEndpoint } from "../webhooks/presenter";
import { redeliverWebhookEvent } from "../webhooks/redeliver-event";
import { rotateWebhookSecret } from "../webhooks/rotate-secret";
import { updateWebhookEndpoint, type UpdateEndpointInput } from "../webhooks/update-endpoint";
import type { AdminContext } from "./context";
import { UNAUTHORIZED } from "./errors";
import { eventTypesResolvers, eventTypesTypeDefs } from "./event-types";
import { adminLoaders } from "./loaders";

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
    "The school's webhook endpoints, oldest first. Secrets are never shown here."
    webhookEndpoints: [WebhookEndpoint!]
    "Deliveries of events to endpoints, newest first, with their attempts. first: 1 to 100 (default 50); status: pending, succeeded or failed."
    webhookDeliveries(endpointId: String, eventId: String, status: String, first: Int): [WebhookDelivery!]
  }

  "Each mutation runs alone, in its own transaction, and reports its failures in its payload. The payloads are nullable so that an unexpected error nulls only its own field (with a top-level error at its path), never what an aliased sibling committed."
  type Mutation {
    createSubscription(input: AdminCreateSubscriptionInput!): AdminCreateSubscriptionPayload
    updateSubscription(input: AdminUpdateSubscriptionInput!): AdminUpdateSubscriptionPayload
    cancelSubscription(input: AdminCancelSubscriptionInput!): AdminCancelSubscriptionPayload
    "Enrolls a user (created when new) in a course. Enrolling twice returns the same enrollment."
    enrollStudentToCourse(input: EnrollStudentToCourseInput!): EnrollStudentToCoursePayload
    "Registers an endpoint. The payload's secret (whsec_…) is shown this once: store it to verify signatures."
    createWebhookEndpoint(input: CreateWebhookEndpointInput!): CreateWebhookEndpointPayload
    "Changes url, events, description; enabled: false disables, true re-enables (pending deliveries resume)."
    updateWebhookEndpoint(input: UpdateWebhookEndpointInput!): WebhookEndpointPayload
    "Deletes an endpoint and its delivery history."
    deleteWebhookEndpoint(input: WebhookEndpointIdInput!): DeleteWebhookEndpointPayload
    "New secret, shown this once; the previous one keeps signing beside it for 24 hours (previousSecretExpiresAt)."
    rotateWebhookSecret(input: WebhookEndpointIdInput!): CreateWebhookEndpointPayload
    "Queues an event again now, to one endpoint or to every enabled endpoint receiving its type. Same webhook-id."
    redeliverWebhookEvent(input: RedeliverWebhookEventInput!): RedeliverWebhookEventPayload
  }

  input CreateWebhookEndpointInput {
    "https URL on a public address."
    url: String!
    "Event types (subscription.created, subscription.updated, subscription.canceling, subscription.canceled, subscription.expired, enrollment.created, member.created), or the single value * for all."
    events: [String!]!
    description: String
  }

  input UpdateWebhookEndpointInput {
    id: String!
    url: String
    events: [String!]
    description: String
    enabled: Boolean
  }

  input WebhookEndpointIdInput {
    id: String!
  }

  input RedeliverWebhookEventInput {
    eventId: String!
    endpointId: String
  }

  type CreateWebhookEndpointPayload {
    errors: [String!]!
    endpoint: WebhookEndpoint
    "The signing secret, returned only here."
    secret: String
  }

  type WebhookEndpointPayload {
    errors: [String!]!
    endpoint: WebhookEndpoint
  }

  type DeleteWebhookEndpointPayload {
    errors: [String!]!
    deletedId: String
  }

  type RedeliverWebhookEventPayload {
    errors: [String!]!
    deliveries: [WebhookDelivery!]
  }

  type WebhookEndpoint {
    id: String!
    url: String!
    description: String!
    events: [String!]!
    enabled: Boolean!
    disabledAt: Int
    "Why the endpoint was disabled (410 Gone, failing for days, or by the school)."
    disabledReason: String
    "First failed attempt since the last success; null while healthy."
    failingSince: Int
    "Until then the secret replaced by the last rotation also signs."
    previousSecretExpiresAt: Int
    createdAt: Int!
    updatedAt: Int!
  }

  type WebhookDelivery {
    id: String!
    endpointId: String!
    "The event's id: the webhook-id header and the body's id."
    eventId: String!
    eventType: String!
    "The exact JSON body sent."
    payload: String!
    "pending, succeeded or failed (gave up after the retry schedule)."
    status: String!
    attemptCount: Int!
    "When the next attempt is due (pending only)."
    nextAttemptAt: Int
    lastStatusCode: Int
    lastError: String
    createdAt: Int!
    updatedAt: Int!
    "Attempts, oldest first (at most 20)."
    attempts: [WebhookAttempt!]!
  }

  type WebhookAttempt {
    attemptedAt: Int!
    durationMs: Int!
    "HTTP status of the answer; null when none came (time-out, refused address, network error)."
    statusCode: Int
    error: String
    succeeded: Boolean!
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

/** A secret returned this once: noted so an Idempotency-Key replay copy never stores it. */
function showOnce(ctx: AdminContext, secret: string | null | undefined): string | null {
  if (!secret) return null;
  (ctx.notes.shownOnce ??= []).push(secret);
  return secret;
}

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

type SubscriptionParent = SubscriptionRowWire &
  Partial<Pick<ReturnType<typeof presentSubscription>, "plan" | "user" | "isCancellable">> & { userId?: string };

async function planOf(s: SubscriptionParent, ctx: AdminContext): Promise<PlanWire> {
  if (s.plan) return s.plan;
  const plan = await adminLoaders(ctx).plan.load(s.planId);
  if (!plan) throw new Error(`subscription ${s.id} has no plan ${s.planId}`);
  return presentPlan(plan);
}

// listCourses hands every request of one content version the content cache's same array of rows:
// their wire shapes (money as strings) are made once per array, not on every request. Nothing
// downstream writes to them; a new version brings a new array, and with it new shapes.
const presentedCourseLists = new WeakMap<readonly Course[], ReturnType<typeof presentCourse>[]>();
function presentedCourses(rows: readonly Course[]): ReturnType<typeof presentCourse>[] {
  let presented = presentedCourseLists.get(rows);
  if (!presented) presentedCourseLists.set(rows, (presented = rows.map(presentCourse)));
  return presented;
}

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
        // Rows only: plan, user and payments are loaded in batches when selected (Subscription below).
        const page = await listSubscriptionRows({ schoolId: ctx.credential.schoolId, filter: args, now: clockNow() });
        return { nodes: page.nodes.map((s) => ({ ...presentSubscriptionRow(s), userId: s.userId })), pageInfo: page.pageInfo };
      });
    },
    courses: (_: unknown, args: { first?: number | null }, ctx: AdminContext) => {
      requireQueryPermission(ctx, "courses");
      return inputError(async () => ({ nodes: presentedCourses(await listCourses({ schoolId: ctx.credential.schoolId, first: args.first })) }));
    },
    webhookEndpoints: async (_: unknown, __: unknown, ctx: AdminContext) => {
      requireQueryPermission(ctx, "webhookEndpoints");
      return (await listWebhookEndpoints({ schoolId: ctx.credential.schoolId })).map(presentEndpoint);
    },
    webhookDeliveries: (_: unknown, args: DeliveryFilter, ctx: AdminContext) => {
      requireQueryPermission(ctx, "webhookDeliveries");
      return inputError(async () => (await listWebhookDeliveries({ schoolId: ctx.credential.schoolId, filter: args })).map(presentDelivery));
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
    createWebhookEndpoint: async (_: unknown, args: { input: CreateEndpointInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "createWebhookEndpoint")) return { errors: [UNAUTHORIZED], endpoint: null, secret: null };
      const p = await createWebhookEndpoint({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow() });
      return { errors: p.errors, endpoint: p.record && presentEndpoint(p.record.endpoint), secret: showOnce(ctx, p.record?.secret) };
    },
    updateWebhookEndpoint: async (_: unknown, args: { input: UpdateEndpointInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "updateWebhookEndpoint")) return { errors: [UNAUTHORIZED], endpoint: null };
      const p = await updateWebhookEndpoint({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow() });
      return { errors: p.errors, endpoint: p.record && presentEndpoint(p.record) };
    },
    deleteWebhookEndpoint: async (_: unknown, args: { input: { id: string } }, ctx: AdminContext) => {
      if (!allowed(ctx, "deleteWebhookEndpoint")) return { errors: [UNAUTHORIZED], deletedId: null };
      const p = await deleteWebhookEndpoint({ schoolId: ctx.credential.schoolId, id: args.input.id });
      return { errors: p.errors, deletedId: p.record?.id ?? null };
    },
    rotateWebhookSecret: async (_: unknown, args: { input: { id: string } }, ctx: AdminContext) => {
      if (!allowed(ctx, "rotateWebhookSecret")) return { errors: [UNAUTHORIZED], endpoint: null, secret: null };
      const p = await rotateWebhookSecret({ schoolId: ctx.credential.schoolId, id: args.input.id, now: clockNow() });
      return { errors: p.errors, endpoint: p.record && presentEndpoint(p.record.endpoint), secret: showOnce(ctx, p.record?.secret) };
    },
    redeliverWebhookEvent: async (_: unknown, args: { input: { eventId: string; endpointId?: string | null } }, ctx: AdminContext) => {
      if (!allowed(ctx, "redeliverWebhookEvent")) return { errors: [UNAUTHORIZED], deliveries: null };
      const p = await redeliverWebhookEvent({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow() });
      return { errors: p.errors, deliveries: p.record && p.record.map(presentDelivery) };
    },
  },
  // A subscription comes whole from a mutation or `subscription(id)`, or as a row from a page
  // (`subscriptions`), whose plan and user are loaded per request in batches (lib/admin-api/loaders.ts).
  Subscription: {
    plan: (s: SubscriptionParent, _: unknown, ctx: AdminContext) => s.plan ?? planOf(s, ctx),
    user: async (s: SubscriptionParent, _: unknown, ctx: AdminContext) => {
      if (s.user) return s.user;
      const user = await adminLoaders(ctx).user.load(s.userId!);
      if (!user) throw new Error(`subscription ${s.id} has no user ${s.userId}`);
      return presentUser(user);
    },
    isCancellable: async (s: SubscriptionParent, _: unknown, ctx: AdminContext) =>
      s.isCancellable ?? isCancellable({ state: s.state, plan: await planOf(s, ctx) }),
    payments: async (s: SubscriptionParent, _: unknown, ctx: AdminContext) => (await adminLoaders(ctx).payments.load(s.id)).map(presentPayment),
  },
};

/** The whole SDL: the types above and the webhook event catalogue's (event-types.ts). */
export const adminTypeDefs = `${typeDefs}\n${eventTypesTypeDefs}`;

export const adminSchema = createSchema<AdminContext>({ typeDefs: adminTypeDefs, resolvers: [resolvers, eventTypesResolvers] });
