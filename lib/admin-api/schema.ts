import type { GraphQLResolveInfo } from "graphql";
import { createSchema } from "graphql-yoga";
import { now as clockNow } from "../clock";
import { UNAUTHORIZED } from "../credentials/permissions";
import type { Course } from "../db/generated/client";
import { cancelSubscription, type CancelSubscriptionInput } from "../membership/cancel-subscription";
import { createSubscription, type CreateSubscriptionInput } from "../membership/create-subscription";
import { pauseSubscription, type PauseSubscriptionInput } from "../membership/pause-subscription";
import { changeSubscriptionPlan, type ChangeSubscriptionPlanInput } from "../billing/change-subscription-plan";
import { refundPayment, type RefundPaymentInput } from "../billing/refund-payment";
import { updatePaymentMethod, type UpdatePaymentMethodInput } from "../billing/update-payment-method";
import { resumeSubscription, type ResumeSubscriptionInput } from "../membership/resume-subscription";
import { enrollStudentToCourse, type EnrollStudentInput } from "../membership/enroll-student";
import { findSubscription } from "../membership/find-subscription";
import { listCourses } from "../membership/list-courses";
import { listMembershipPlans } from "../membership/list-membership-plans";
import { listSubscriptionWireRows, type SubscriptionFilter } from "../membership/list-subscriptions";
import {
  presentCourse,
  presentEnrollment,
  presentPayment,
  presentPlan,
  presentSubscription,
  type PlanWire,
  type UserWire,
  type SubscriptionRowWire,
} from "../membership/presenter";
import { isCancellable } from "../membership/states";
import type { SubscriptionRecord } from "../membership/record-types";
import type { Payload } from "../db/write-transaction";
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
import { eventTypesResolvers, eventTypesTypeDefs } from "./event-types";
import { memberQueriesResolvers, memberQueriesTypeDefs } from "./member-queries";
import { allowed, inputError, requireQueryPermission } from "./query-guards";
import { adminLoaders, prefetchForRows, whenLoaded } from "./loaders";
import { nodeFieldNames } from "./node-selection";
import { adminActor } from "./audit-actor";
import { auditQueriesResolvers, auditQueriesTypeDefs } from "./audit-queries";

// Every type, field, argument and input field carries a description (schema-descriptions.test.ts
// fails on one without): GraphiQL's docs pane and the published SDL are the API's reference.
// The subscription fields shared by AdminSubscription and Subscription, described once.
const SUBSCRIPTION_FIELDS = /* GraphQL */ `
    "The subscription's id (UUID): pass it to updateSubscription and cancelSubscription."
    id: String!
    "Free-text reason recorded with a cancellation; null when none was given."
    cancelReason: String
    "How the subscription was or will be canceled: at_period_end, custom_date or immediate; null while no cancellation was asked for."
    cancelType: String
    "When the subscription was created (Unix seconds)."
    createdAt: Int!
    "When the subscription last changed (Unix seconds)."
    updatedAt: Int!
    "Start of the current billing or access period (Unix seconds); null for lifetime plans."
    currentPeriodStart: Int
    "End of the current period (Unix seconds): the next charge of recurring plans, the access end of fixed_date and specific_length plans; null for lifetime plans. Change it with updateSubscription."
    currentPeriodEnd: Int
    "When access starts (Unix seconds)."
    startAt: Int
    "When access ends (Unix seconds): calculated or set for fixed_date and specific_length plans, the final termination time once canceled; null for lifetime plans and open-ended recurring ones."
    endAt: Int
    "Next scheduled charge (Unix seconds): the renewal at the period end, or while past_due the next retry of the failed one; null for non-recurring plans, for inactive subscriptions and once a cancellation is scheduled."
    nextChargeDate: Int
    "Scheduled cancellation time (Unix seconds); null when none is scheduled (and once it has taken effect)."
    cancelAt: Int
    "When the subscription was canceled (Unix seconds); null if it was not."
    canceledAt: Int
    "True while a cancellation is scheduled for a future time (state stays active until then); updateSubscription refuses such a subscription, and cancelSubscription then cancels it at once."
    isCanceling: Boolean!
    "False for lifetime subscriptions and canceled ones: cancelSubscription would refuse them."
    isCancellable: Boolean!
    "The membership plan subscribed to."
    plan: MembershipPlan!
    "The plan's id (the same as plan.id)."
    planId: String!
    "active, incomplete, incomplete_expired, trialing, past_due, canceled or expired. A paused subscription keeps its state: check isPaused too before granting access."
    state: String!
    "The member who owns the subscription."
    user: User!
    "How the periods are paid: external (the school collects the money elsewhere; each period renews without a charge) or charge_automatically (the school's payment provider charges the saved payment method at each renewal)."
    collectionMethod: String!
    "When the subscription was paused (Unix seconds); null while it is not paused."
    pausedAt: Int
    "True while paused (pauseSubscription): no charges and no access until resumeSubscription, whatever the state says (the state is kept while paused)."
    isPaused: Boolean!
`;

export const typeDefs = /* GraphQL */ `
  "Read operations of the Admin API. Timestamps are Int Unix seconds everywhere; each field needs its permission on the API key (a key without it gets null and a FORBIDDEN error)."
  type Query {
    "The school's membership plans (every status: published, hidden and draft)."
    membershipPlans: [MembershipPlan!]
    "One subscription of the school; null when it does not exist or belongs to another school."
    subscription(
      "The subscription's id (UUID)."
      id: String!
    ): Subscription
    "The school's subscriptions, oldest first, a page at a time: pass pageInfo.endCursor as after for the next page."
    subscriptions(
      "Page size: 1 to 100 (default 50); the operation's cost is counted with it."
      first: Int
      "The endCursor of the previous page; omit it for the first page."
      after: String
      "Only subscriptions to this plan (a MembershipPlan id)."
      planId: String
      "Only subscriptions of the member with this email address (compared case-insensitively)."
      email: String
      "Only subscriptions in this state: active, incomplete, incomplete_expired, trialing, past_due, canceled or expired."
      state: String
    ): SubscriptionConnection
    "The school's courses (every status: published, hidden and draft), in catalog order, a page at a time: pass pageInfo.endCursor as after for the next page."
    courses(
      "Page size: 1 to 100 (default 50); the operation's cost is counted with it."
      first: Int
      "The endCursor of the previous page; omit it for the first page."
      after: String
    ): CourseConnection
    "The school's webhook endpoints, oldest first. Secrets are never shown here."
    webhookEndpoints: [WebhookEndpoint!]
    "Deliveries of events to endpoints, newest first, with their attempts."
    webhookDeliveries(
      "Only deliveries to this endpoint (a WebhookEndpoint id)."
      endpointId: String
      "Only deliveries of this event (the webhook-id header of the delivery)."
      eventId: String
      "Only deliveries in this status: pending, succeeded or failed."
      status: String
      "How many deliveries: 1 to 100 (default 50); the operation's cost is counted with it."
      first: Int
    ): [WebhookDelivery!]
  }

  "Each mutation runs alone, in its own transaction, and reports its failures in its payload. The payloads are nullable so that an unexpected error nulls only its own field (with a top-level error at its path), never what an aliased sibling committed."
  type Mutation {
    "Subscribes a member (created when no user has the email: pass name) to a plan. Dates follow the plan type: recurring plans take initialChargeAt, fixed_date and specific_length plans take expireAt, lifetime plans neither. Failures (Plan not found, User already subscribed to this plan, Name is required for new users, Invalid plan type, Unauthorized) come in errors."
    createSubscription(
      "Who subscribes to which plan, and its dates."
      input: AdminCreateSubscriptionInput!
    ): AdminCreateSubscriptionPayload
    "Moves the end of the current period (extends or shortens it). Refused for lifetime, canceled and canceling subscriptions, and for a time more than 10 years ahead, more than 1 year back or before the current period start."
    updateSubscription(
      "The subscription and its new period end."
      input: AdminUpdateSubscriptionInput!
    ): AdminUpdateSubscriptionPayload
    "Cancels at the period end (the default), immediately (cancelAtPeriodEnd: false) or at customEndedAt. A subscription already canceling is canceled at once, whatever the input. Refused for lifetime and canceled subscriptions."
    cancelSubscription(
      "The subscription and when it ends."
      input: AdminCancelSubscriptionInput!
    ): AdminCancelSubscriptionPayload
    "Pauses a subscription (Stripe's pause): no charges, no access and no expiry until resumeSubscription; the state is kept and isPaused is true. Refused for lifetime, ended, past_due, incomplete and canceling subscriptions, a paused one, and while a charge is in progress. Canceling a paused subscription ends it at once."
    pauseSubscription(
      "The subscription to pause."
      input: AdminPauseSubscriptionInput!
    ): AdminPauseSubscriptionPayload
    "Resumes a paused subscription: access again, and currentPeriodEnd (with a fixed endAt, and a recurring plan's next charge) moves forward by the time paused. Refused when the subscription is not paused."
    resumeSubscription(
      "The subscription to resume."
      input: AdminResumeSubscriptionInput!
    ): AdminResumeSubscriptionPayload
    "Moves a recurring subscription to another recurring plan billed at the same interval and currency (Stripe's rules). Same price or higher (an upgrade): now; a charge_automatically subscription is first charged the prorated difference for the rest of the current period (a refused card leaves the plan unchanged and its message is the error). Lower price (a downgrade): scheduled for the period end (scheduledPlanId), when the renewal charges the new price; choosing the current plan again withdraws it. Trials and externally collected subscriptions change without a charge. Refused for ended, lifetime, non-recurring, paused, past_due, incomplete and canceling subscriptions, draft or incompatible plans, the same plan, a plan the member already holds, and while a payment is in progress."
    changeSubscriptionPlan(
      "The subscription and the plan to move it to."
      input: AdminChangeSubscriptionPlanInput!
    ): AdminChangeSubscriptionPlanPayload
    "Saves a new payment method on a charge_automatically subscription that is active, trialing or past_due (subscription.updated). While past_due (not canceling, not paused) the missed period is charged with it at once, never twice: paid → active (payment.succeeded, subscription.renewed); refused → still past_due, payment.failureMessage says why and the next scheduled retry (nextChargeDate) is unchanged. Failures (Subscription not found, not charge_automatically, not active, trialing or past_due, paymentMethod missing, the provider's message for a refused card, a payment in progress, Unauthorized) come in errors and change nothing."
    updateSubscriptionPaymentMethod(
      "The subscription and its new payment method."
      input: AdminUpdateSubscriptionPaymentMethodInput!
    ): AdminUpdateSubscriptionPaymentMethodPayload
    "Refunds a succeeded payment in full (no amount) or in part, through the payment provider; a retry of the same refund (same amount, e.g. after a time-out) is never refunded twice. A refund does not cancel the subscription or end its access: cancel it separately (cancelSubscription). Failures (Payment not found, Only succeeded payments can be refunded, Payment is already fully refunded, amount too large or malformed, Unauthorized, the provider's message) come in errors."
    refundPayment(
      "The payment and how much of it to refund."
      input: AdminRefundPaymentInput!
    ): AdminRefundPaymentPayload
    "Enrolls a user (created when new) in a course. Enrolling twice returns the same enrollment."
    enrollStudentToCourse(
      "The course and the person."
      input: EnrollStudentToCourseInput!
    ): EnrollStudentToCoursePayload
    "Registers an endpoint (at most 20 per school). The payload's secret (whsec_…) is shown this once: store it to verify signatures."
    createWebhookEndpoint(
      "Where to deliver and which events."
      input: CreateWebhookEndpointInput!
    ): CreateWebhookEndpointPayload
    "Changes url, events, description; enabled: false disables, true re-enables (pending deliveries resume)."
    updateWebhookEndpoint(
      "The endpoint and the fields to change; omitted fields keep their value."
      input: UpdateWebhookEndpointInput!
    ): WebhookEndpointPayload
    "Deletes an endpoint and its delivery history."
    deleteWebhookEndpoint(
      "The endpoint to delete."
      input: WebhookEndpointIdInput!
    ): DeleteWebhookEndpointPayload
    "New secret, shown this once; the previous one keeps signing beside it for 24 hours (previousSecretExpiresAt)."
    rotateWebhookSecret(
      "The endpoint whose secret is replaced."
      input: WebhookEndpointIdInput!
    ): CreateWebhookEndpointPayload
    "Queues an event again now, to one endpoint or to every enabled endpoint receiving its type. Same webhook-id."
    redeliverWebhookEvent(
      "The event, and optionally the one endpoint to send it to."
      input: RedeliverWebhookEventInput!
    ): RedeliverWebhookEventPayload
  }

  "A new webhook endpoint."
  input CreateWebhookEndpointInput {
    "https URL on a public address, at most 2048 characters, without a fragment."
    url: String!
    "Event types (the eventTypes query lists them: subscription.created, subscription.renewed, payment.failed, …), or the single value * for all."
    events: [String!]!
    "A note for the school's staff, at most 500 characters."
    description: String
  }

  "Changes to a webhook endpoint; omitted fields keep their value."
  input UpdateWebhookEndpointInput {
    "The endpoint's id."
    id: String!
    "New https URL on a public address, at most 2048 characters."
    url: String
    "New event types, or the single value * for all (the same names as createWebhookEndpoint)."
    events: [String!]
    "New note, at most 500 characters."
    description: String
    "false disables the endpoint (nothing is delivered); true re-enables it and resumes its pending deliveries."
    enabled: Boolean
  }

  "Names one webhook endpoint."
  input WebhookEndpointIdInput {
    "The endpoint's id."
    id: String!
  }

  "An event to deliver again."
  input RedeliverWebhookEventInput {
    "The event's id (a WebhookDelivery's eventId, the webhook-id header)."
    eventId: String!
    "Send only to this endpoint; omitted: to every enabled endpoint that receives the event's type."
    endpointId: String
  }

  "Result of createWebhookEndpoint and rotateWebhookSecret."
  type CreateWebhookEndpointPayload {
    "Why nothing changed; empty on success."
    errors: [String!]!
    "The endpoint; null on failure."
    endpoint: WebhookEndpoint
    "The signing secret (whsec_…), returned only here: store it to verify the webhook-signature header."
    secret: String
  }

  "Result of updateWebhookEndpoint."
  type WebhookEndpointPayload {
    "Why nothing changed; empty on success."
    errors: [String!]!
    "The endpoint as it is now; null on failure."
    endpoint: WebhookEndpoint
  }

  "Result of deleteWebhookEndpoint."
  type DeleteWebhookEndpointPayload {
    "Why nothing was deleted; empty on success."
    errors: [String!]!
    "The deleted endpoint's id; null on failure."
    deletedId: String
  }

  "Result of redeliverWebhookEvent."
  type RedeliverWebhookEventPayload {
    "Why nothing was queued; empty on success."
    errors: [String!]!
    "The deliveries queued, one per endpoint; null on failure."
    deliveries: [WebhookDelivery!]
  }

  "A URL the school's events are delivered to, signed with Standard Webhooks headers."
  type WebhookEndpoint {
    "The endpoint's id: pass it to updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret and webhookDeliveries."
    id: String!
    "The https URL deliveries are POSTed to."
    url: String!
    "The school's note about the endpoint; empty when none."
    description: String!
    "Event types delivered here, or the single value * for all."
    events: [String!]!
    "False once disabled (by the school, after a 410 Gone, or after failing for days): nothing is delivered until updateWebhookEndpoint sets enabled: true."
    enabled: Boolean!
    "When the endpoint was disabled (Unix seconds); null while enabled."
    disabledAt: Int
    "Why the endpoint was disabled (410 Gone, failing for days, or by the school)."
    disabledReason: String
    "First failed attempt since the last success (Unix seconds); null while healthy."
    failingSince: Int
    "Until then (Unix seconds) the secret replaced by the last rotation also signs; null when no rotation overlaps."
    previousSecretExpiresAt: Int
    "When the endpoint was registered (Unix seconds)."
    createdAt: Int!
    "When the endpoint last changed (Unix seconds)."
    updatedAt: Int!
  }

  "One event on its way to one endpoint, with its attempts."
  type WebhookDelivery {
    "The delivery's id."
    id: String!
    "The endpoint it goes to."
    endpointId: String!
    "The event's id: the webhook-id header and the body's id."
    eventId: String!
    "The event type, e.g. subscription.created."
    eventType: String!
    "The exact JSON body sent."
    payload: String!
    "pending, succeeded or failed (gave up after the retry schedule)."
    status: String!
    "How many attempts were made."
    attemptCount: Int!
    "When the next attempt is due (Unix seconds; pending only)."
    nextAttemptAt: Int
    "HTTP status of the last attempt's answer; null when none came."
    lastStatusCode: Int
    "What went wrong in the last attempt (time-out, refused address, network error, non-2xx status); null after a success."
    lastError: String
    "When the delivery was queued (Unix seconds)."
    createdAt: Int!
    "When the delivery last changed (Unix seconds)."
    updatedAt: Int!
    "Attempts, oldest first (at most 20)."
    attempts: [WebhookAttempt!]!
  }

  "One HTTP request of a delivery."
  type WebhookAttempt {
    "When the request was sent (Unix seconds)."
    attemptedAt: Int!
    "How long the endpoint took to answer, in milliseconds."
    durationMs: Int!
    "HTTP status of the answer; null when none came (time-out, refused address, network error)."
    statusCode: Int
    "What went wrong; null when the endpoint answered 2xx."
    error: String
    "True when the endpoint answered 2xx."
    succeeded: Boolean!
    "The start of the endpoint's answer (at most 500 characters, control characters replaced by spaces); null when none came or it was empty."
    responseExcerpt: String
  }

  "A subscription to create."
  input AdminCreateSubscriptionInput {
    "Email of the member; a user with this email is created when none exists."
    email: String!
    "Name of the new user: required when no user has this email, ignored otherwise."
    name: String
    "The plan's id (a MembershipPlan id)."
    planId: String!
    "Access end (Unix seconds) of fixed_date and specific_length plans; refused for other plan types (Invalid plan type)."
    expireAt: Int
    "recurring plans only: end of the first period and first charge (Unix seconds). With charge_automatically the subscription is trialing until then."
    initialChargeAt: Int
    "external (the default: the school takes the payments elsewhere and the subscription is active at once) or charge_automatically (the school's payment provider charges paymentMethod: now, incomplete until paid, or at initialChargeAt)."
    collectionMethod: String
    "charge_automatically only: the payment method to save and charge. In test mode a test card number (4242424242424242 succeeds, 4000000000000002 is declined, 4000000000009995 has insufficient funds, 4000000000000341 pays now and fails on renewals) or its Stripe token (pm_card_visa, …)."
    paymentMethod: String
  }

  "A new end for a subscription's current period."
  input AdminUpdateSubscriptionInput {
    "The subscription's id."
    id: String!
    "New end of the current period (Unix seconds): at most 10 years ahead, at most 1 year back, not before the current period start."
    currentPeriodEnd: Int!
  }

  "A subscription to cancel, and when."
  input AdminCancelSubscriptionInput {
    "The subscription's id."
    id: String!
    "true (default): cancel at the end of the current period (isCanceling becomes true); false: cancel now. Ignored when customEndedAt is given or the subscription is already canceling."
    cancelAtPeriodEnd: Boolean = true
    "End at this time (Unix seconds) instead: scheduled when in the future, immediate when past; not before the subscription's start."
    customEndedAt: Int
  }

  "A subscription to pause."
  input AdminPauseSubscriptionInput {
    "The subscription's id."
    id: String!
  }

  "A paused subscription to resume."
  input AdminResumeSubscriptionInput {
    "The subscription's id."
    id: String!
  }

  "A subscription and the plan to move it to."
  input AdminChangeSubscriptionPlanInput {
    "The subscription's id."
    id: String!
    "The new plan's id (a MembershipPlan id): recurring, not draft, at the subscription's interval and currency. The current plan's id withdraws a scheduled downgrade."
    planId: String!
  }

  "A subscription's new payment method."
  input AdminUpdateSubscriptionPaymentMethodInput {
    "The subscription's id."
    id: String!
    "The payment method to save (at most 200 characters): in test mode a test card number (4242424242424242 pays; 4000000000000002 and 4000000000009995 are declined; 4000000000000341 is declined off-session) or its pm_card_* token; otherwise the provider's payment method reference."
    paymentMethod: String!
  }

  "A payment to refund, and how much."
  input AdminRefundPaymentInput {
    "The payment's id (Subscription.payments)."
    paymentId: String!
    "How much to refund, a decimal string in the payment's currency such as 10.00: more than 0 and at most what is not yet refunded. Omitted: all that is not yet refunded."
    amount: String
  }

  "A course and the person to enroll in it."
  input EnrollStudentToCourseInput {
    "The course's id (a Course id)."
    courseId: String!
    "Email of the student; a user with this email is created when none exists."
    email: String!
    "Name of the new user: required when no user has this email, ignored otherwise."
    name: String
  }

  "Result of createSubscription."
  type AdminCreateSubscriptionPayload {
    "Messages saying why nothing was created; empty on success."
    errors: [String!]!
    "The new subscription; null on failure."
    subscription: AdminSubscription
  }

  "Result of updateSubscription."
  type AdminUpdateSubscriptionPayload {
    "Messages saying why nothing changed; empty on success."
    errors: [String!]!
    "The subscription as it is now; null on failure."
    subscription: Subscription
  }

  "Result of cancelSubscription."
  type AdminCancelSubscriptionPayload {
    "Messages saying why nothing changed; empty on success."
    errors: [String!]!
    "The subscription as it is now; null on failure."
    subscription: Subscription
  }

  "Result of pauseSubscription."
  type AdminPauseSubscriptionPayload {
    "Messages saying why nothing changed; empty on success."
    errors: [String!]!
    "The subscription as it is now; null on failure."
    subscription: Subscription
  }

  "Result of resumeSubscription."
  type AdminResumeSubscriptionPayload {
    "Messages saying why nothing changed; empty on success."
    errors: [String!]!
    "The subscription as it is now; null on failure."
    subscription: Subscription
  }

  "Result of changeSubscriptionPlan."
  type AdminChangeSubscriptionPlanPayload {
    "Messages saying why nothing changed (a refused card's message among them); empty on success."
    errors: [String!]!
    "The subscription as it is now (plan, scheduledPlanId, payments with the proration); null on failure."
    subscription: Subscription
  }

  "Result of updateSubscriptionPaymentMethod."
  type AdminUpdateSubscriptionPaymentMethodPayload {
    "Messages saying why nothing changed; empty once the payment method is saved (even when the charge it made was refused: see payment)."
    errors: [String!]!
    "The subscription as it is now; null on failure."
    subscription: Subscription
    "The charge made at once with the new method while past_due (state succeeded, failed, or pending when the provider did not answer: reconciled by the next renewal run); null when no charge was made."
    payment: Payment
  }

  "Result of refundPayment."
  type AdminRefundPaymentPayload {
    "Messages saying why nothing was refunded; empty on success."
    errors: [String!]!
    "The payment as it is now (refundedAmount, refundedAt, state refunded once all of it is); null on failure."
    payment: Payment
  }

  "Result of enrollStudentToCourse."
  type EnrollStudentToCoursePayload {
    "Messages saying why nobody was enrolled; empty on success."
    errors: [String!]!
    "The enrollment (the existing one when enrolled before); null on failure."
    enrollment: Enrollment
  }

  "A subscription as createSubscription returns it."
  type AdminSubscription {
${SUBSCRIPTION_FIELDS}
  }

  "A member's subscription to a membership plan, with its payments."
  type Subscription {
${SUBSCRIPTION_FIELDS}
    "A downgrade scheduled by changeSubscriptionPlan: the plan (a MembershipPlan id) the renewal at currentPeriodEnd charges and switches to; null when none is scheduled."
    scheduledPlanId: String
    "Payments of this subscription, oldest first."
    payments: [Payment!]
  }

  "A page of subscriptions."
  type SubscriptionConnection {
    "The subscriptions of this page."
    nodes: [Subscription!]!
    "Whether more pages follow, and the cursor to ask for the next one."
    pageInfo: PageInfo!
  }

  "Where a page ends."
  type PageInfo {
    "True when another page follows: ask for it with after: endCursor."
    hasNextPage: Boolean!
    "Cursor of the page's last item, to pass as after; null for an empty page."
    endCursor: String
  }

  "A membership plan of the school: what a subscription gives access to, and on what terms."
  type MembershipPlan {
    "The plan's id: pass it as planId."
    id: String!
    "The plan's name as the storefront shows it."
    name: String!
    "The plan's address on the storefront (/plans/<slug>)."
    slug: String!
    "recurring, fixed_date, specific_length or lifetime."
    planType: String!
    "True for lifetime plans (permanent access, one purchase): their subscriptions cannot be updated or canceled."
    isLifetime: Boolean!
    "Billing unit of recurring plans (day, week, month, year); null otherwise."
    interval: String
    "How many intervals one billing period lasts (e.g. 3 with month: quarterly)."
    intervalCount: Int!
    "Decimal amount as a string, e.g. \\"29.00\\"."
    price: String!
    "ISO 4217 code."
    currency: String!
    "Access length of specific_length plans, in lengthInterval units; null otherwise."
    lengthCount: Int
    "Unit of lengthCount (day, week, month, year); null otherwise."
    lengthInterval: String
    "End date of fixed_date plans (Unix seconds); null otherwise."
    fixedEndAt: Int
    "published, hidden or draft."
    status: String!
  }

  "A person known to the school."
  type User {
    "The user's id (UUID)."
    id: String!
    "The user's email address (lowercase)."
    email: String!
    "The user's display name."
    name: String!
  }

  "One attempt to collect one period of a subscription: a retry of a failed period is a new payment with the next attempt number."
  type Payment {
    "The payment's id."
    id: String!
    "Decimal amount as a string."
    amount: String!
    "ISO 4217 code."
    currency: String!
    "pending (sent to the provider, outcome not yet known), succeeded, failed or refunded (refunded in full; a partial refund keeps succeeded with refundedAmount above 0)."
    state: String!
    "When the payment succeeded (Unix seconds); null otherwise."
    paidAt: Int
    "When the payment was recorded (Unix seconds)."
    createdAt: Int!
    "The subscription the payment is for; null for a one-time purchase (billingReason one_time: a course or a digital download bought at checkout)."
    subscriptionId: String
    "Start of the period the payment pays for (Unix seconds); null on payments recorded before billing existed."
    periodStart: Int
    "End of the period the payment pays for (Unix seconds); null for lifetime plans and on payments recorded before billing existed."
    periodEnd: Int
    "Why it was charged: subscription_create (the first charge at purchase), subscription_cycle (a renewal or its retry), subscription_update (the prorated charge of an upgrade by changeSubscriptionPlan, for the rest of the period) or one_time (a course or a digital download bought once at checkout: no subscription, no period); null on payments recorded before billing existed."
    billingReason: String
    "Who took the money: external (the school, outside Schoolhouse), test (the test provider: no money moves) or stripe (the school's Stripe account; providerPaymentId is the PaymentIntent id)."
    provider: String!
    "The provider's id of the charge; null until the provider answered."
    providerPaymentId: String
    "The provider's reference of the payment method charged (e.g. pm_card_visa); null for external payments."
    paymentMethodId: String
    "1 for a period's first try, 2 and up for its retries."
    attempt: Int!
    "Why the provider refused (a decline code such as generic_decline or insufficient_funds); null unless failed."
    failureCode: String
    "The provider's message for the member about the refusal; null unless failed."
    failureMessage: String
    "When the payment failed (Unix seconds); null unless failed."
    failedAt: Int
    "Decimal amount refunded so far, as a string (0.00 when none)."
    refundedAmount: String!
    "When the last refund was made (Unix seconds); null when none."
    refundedAt: Int
    "The plan charged for (a MembershipPlan id): an upgrade's new plan, a renewal's plan; null on payments recorded before plan changes existed, and for one-time purchases."
    planId: String
    "A one-time purchase's buyer (a Member id); null for a subscription's payments (the subscription names its member)."
    userId: String
    "The course a one-time purchase bought (a Course id; the buyer is enrolled in it); null otherwise."
    courseId: String
    "The digital download a one-time purchase bought (a DigitalDownload id); null otherwise."
    downloadId: String
    "What a one-time purchase bought, named as the content named it at the time (the receipt shows it); null for a subscription's payments."
    description: String
  }

  "A course of the school's catalog."
  type Course {
    "The course's id: pass it as courseId to enrollStudentToCourse."
    id: String!
    "The course's address on the storefront (/courses/<slug>)."
    slug: String!
    "The course's title."
    title: String!
    "One-paragraph summary; empty when none."
    summary: String!
    "published, hidden or draft."
    status: String!
    "Decimal price as a string, e.g. \\"49.00\\"; null for a free course."
    price: String
    "ISO 4217 code of price; null for a free course."
    currency: String
  }

  "A page of courses."
  type CourseConnection {
    "The courses of this page, in catalog order."
    nodes: [Course!]!
    "Whether more pages follow, and the cursor to ask for the next one."
    pageInfo: PageInfo!
  }

  "A person's enrollment in a course."
  type Enrollment {
    "The enrollment's id."
    id: String!
    "When the person was enrolled (Unix seconds)."
    createdAt: Int!
    "The course."
    course: Course!
    "The enrolled person."
    user: User!
  }
`;

/** A secret returned this once: noted so an Idempotency-Key replay copy never stores it. */
function showOnce(ctx: AdminContext, secret: string | null | undefined): string | null {
  if (!secret) return null;
  (ctx.notes.shownOnce ??= []).push(secret);
  return secret;
}

// The membership domain decides; these resolvers only check the key's permission and present.
const subscriptionPayload = (p: Payload<SubscriptionRecord>) => ({
  errors: p.errors,
  subscription: p.record && presentSubscription(p.record),
});

type SubscriptionParent = SubscriptionRowWire &
  Partial<Pick<ReturnType<typeof presentSubscription>, "plan" | "user" | "isCancellable">> & { userId?: string };

// A page's rows get their plan from the per-request loader: the plan itself once it has arrived (no
// promise per row), else a promise of it.
function planOf(s: SubscriptionParent, ctx: AdminContext): PlanWire | Promise<PlanWire> {
  if (s.plan) return s.plan;
  return whenLoaded(adminLoaders(ctx).plan.load(s.planId), (p) => foundPlan(s, p));
}

function foundPlan(s: SubscriptionParent, plan: PlanWire | null): PlanWire {
  if (!plan) throw new Error(`subscription ${s.id} has no plan ${s.planId}`);
  return plan;
}

function foundUser(s: SubscriptionParent, user: UserWire | null): UserWire {
  if (!user) throw new Error(`subscription ${s.id} has no user ${s.userId}`);
  return user;
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
    subscriptions: (_: unknown, args: SubscriptionFilter, ctx: AdminContext, info: GraphQLResolveInfo) => {
      requireQueryPermission(ctx, "subscriptions");
      return inputError(async () => {
        // Rows only, already in the wire shape: plan, user and payments are loaded in batches when
        // selected (Subscription below), and the request settles once for all its pages.
        const loaders = adminLoaders(ctx);
        const page = await listSubscriptionWireRows({ schoolId: ctx.credential.schoolId, filter: args, now: clockNow(), settle: loaders.settle });
        await prefetchForRows(loaders, page.nodes, nodeFieldNames(info));
        return page;
      });
    },
    courses: (_: unknown, args: { first?: number | null; after?: string | null }, ctx: AdminContext) => {
      requireQueryPermission(ctx, "courses");
      return inputError(async () => {
        const page = await listCourses({ schoolId: ctx.credential.schoolId, first: args.first, after: args.after });
        return { nodes: presentedCourses(page.nodes), pageInfo: page.pageInfo };
      });
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
      return subscriptionPayload(await createSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) }));
    },
    updateSubscription: async (_: unknown, args: { input: UpdateSubscriptionInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "updateSubscription")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await updateSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) }));
    },
    cancelSubscription: async (_: unknown, args: { input: CancelSubscriptionInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "cancelSubscription")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await cancelSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) }));
    },
    pauseSubscription: async (_: unknown, args: { input: PauseSubscriptionInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "pauseSubscription")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await pauseSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) }));
    },
    resumeSubscription: async (_: unknown, args: { input: ResumeSubscriptionInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "resumeSubscription")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await resumeSubscription({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) }));
    },
    changeSubscriptionPlan: async (_: unknown, args: { input: ChangeSubscriptionPlanInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "changeSubscriptionPlan")) return { errors: [UNAUTHORIZED], subscription: null };
      return subscriptionPayload(await changeSubscriptionPlan({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) }));
    },
    updateSubscriptionPaymentMethod: async (_: unknown, args: { input: UpdatePaymentMethodInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "updateSubscriptionPaymentMethod")) return { errors: [UNAUTHORIZED], subscription: null, payment: null };
      const p = await updatePaymentMethod({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) });
      if (!p.record) return { errors: p.errors, subscription: null, payment: null };
      return { errors: [], subscription: presentSubscription(p.record.subscription), payment: p.record.payment && presentPayment(p.record.payment) };
    },
    refundPayment: async (_: unknown, args: { input: RefundPaymentInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "refundPayment")) return { errors: [UNAUTHORIZED], payment: null };
      const p = await refundPayment({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) });
      return { errors: p.errors, payment: p.record && presentPayment(p.record) };
    },
    enrollStudentToCourse: async (_: unknown, args: { input: EnrollStudentInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "enrollStudentToCourse")) return { errors: [UNAUTHORIZED], enrollment: null };
      const p = await enrollStudentToCourse({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) });
      return { errors: p.errors, enrollment: p.record && presentEnrollment(p.record) };
    },
    createWebhookEndpoint: async (_: unknown, args: { input: CreateEndpointInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "createWebhookEndpoint")) return { errors: [UNAUTHORIZED], endpoint: null, secret: null };
      const p = await createWebhookEndpoint({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) });
      return { errors: p.errors, endpoint: p.record && presentEndpoint(p.record.endpoint), secret: showOnce(ctx, p.record?.secret) };
    },
    updateWebhookEndpoint: async (_: unknown, args: { input: UpdateEndpointInput }, ctx: AdminContext) => {
      if (!allowed(ctx, "updateWebhookEndpoint")) return { errors: [UNAUTHORIZED], endpoint: null };
      const p = await updateWebhookEndpoint({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) });
      return { errors: p.errors, endpoint: p.record && presentEndpoint(p.record) };
    },
    deleteWebhookEndpoint: async (_: unknown, args: { input: { id: string } }, ctx: AdminContext) => {
      if (!allowed(ctx, "deleteWebhookEndpoint")) return { errors: [UNAUTHORIZED], deletedId: null };
      const p = await deleteWebhookEndpoint({ schoolId: ctx.credential.schoolId, id: args.input.id, now: clockNow(), actor: adminActor(ctx) });
      return { errors: p.errors, deletedId: p.record?.id ?? null };
    },
    rotateWebhookSecret: async (_: unknown, args: { input: { id: string } }, ctx: AdminContext) => {
      if (!allowed(ctx, "rotateWebhookSecret")) return { errors: [UNAUTHORIZED], endpoint: null, secret: null };
      const p = await rotateWebhookSecret({ schoolId: ctx.credential.schoolId, id: args.input.id, now: clockNow(), actor: adminActor(ctx) });
      return { errors: p.errors, endpoint: p.record && presentEndpoint(p.record.endpoint), secret: showOnce(ctx, p.record?.secret) };
    },
    redeliverWebhookEvent: async (_: unknown, args: { input: { eventId: string; endpointId?: string | null } }, ctx: AdminContext) => {
      if (!allowed(ctx, "redeliverWebhookEvent")) return { errors: [UNAUTHORIZED], deliveries: null };
      const p = await redeliverWebhookEvent({ schoolId: ctx.credential.schoolId, input: args.input, now: clockNow(), actor: adminActor(ctx) });
      return { errors: p.errors, deliveries: p.record && p.record.map(presentDelivery) };
    },
  },
  // A subscription comes whole from a mutation or `subscription(id)`, or as a row from a page
  // (`subscriptions`), whose plan and user are loaded per request in batches (lib/admin-api/loaders.ts).
  Subscription: {
    plan: (s: SubscriptionParent, _: unknown, ctx: AdminContext) => planOf(s, ctx),
    user: (s: SubscriptionParent, _: unknown, ctx: AdminContext) => {
      if (s.user) return s.user;
      return whenLoaded(adminLoaders(ctx).user.load(s.userId!), (u) => foundUser(s, u));
    },
    isCancellable: (s: SubscriptionParent, _: unknown, ctx: AdminContext) => {
      if (s.isCancellable !== undefined) return s.isCancellable;
      return whenLoaded(planOf(s, ctx), (plan) => isCancellable({ state: s.state, plan }));
    },
    // Whole subscriptions (mutations, subscription(id)) and page rows alike: the per-request
    // loader, whose lists are already in presentPayment's shape.
    payments: (s: SubscriptionParent, _: unknown, ctx: AdminContext) => adminLoaders(ctx).payments.load(s.id),
  },
};

/** The whole SDL: the types above, the webhook event catalogue's (event-types.ts), the member reads (member-queries.ts), payments and the audit log (audit-queries.ts). */
export const adminTypeDefs = `${typeDefs}\n${eventTypesTypeDefs}\n${memberQueriesTypeDefs}\n${auditQueriesTypeDefs}`;

export const adminSchema = createSchema<AdminContext>({
  typeDefs: adminTypeDefs,
  resolvers: [resolvers, eventTypesResolvers, memberQueriesResolvers, auditQueriesResolvers],
});
