import type { WebhookEventType } from "../db/outbox";

/**
 * What each event type means and which Admin API type its `data` is (docs/decisions.md, "Event
 * catalogue"). A Record over every type, so a new event type cannot ship undescribed.
 */
export const WEBHOOK_EVENT_CATALOGUE: Record<WebhookEventType, { description: string; dataType: "Subscription" | "User" | "Enrollment" | "Payment" | "WebhookEndpoint" }> = {
  "member.created": {
    description: "A person joined the school (createSubscription or enrollStudentToCourse for someone not yet a member).",
    dataType: "User",
  },
  "subscription.created": { description: "createSubscription succeeded.", dataType: "Subscription" },
  "subscription.updated": {
    description:
      "updateSubscription moved the period end, the member took back a scheduled cancellation on their account page (isCanceling is false again), or a new payment method was saved (updateSubscriptionPaymentMethod, the account page).",
    dataType: "Subscription",
  },
  "subscription.canceling": { description: "cancelSubscription scheduled a cancellation at the period end (isCanceling is true).", dataType: "Subscription" },
  "subscription.canceled": {
    description: "cancelSubscription cancelled now, a scheduled cancellation took effect as time passed, or the last retry of a failed renewal failed (cancelType payment_failed).",
    dataType: "Subscription",
  },
  "subscription.expired": {
    description: "A fixed_date or specific_length subscription's end passed (or an update moved it into the past: updated, then expired).",
    dataType: "Subscription",
  },
  "payment.succeeded": {
    description:
      "The payment provider took a payment: of a charge_automatically subscription (first charge, renewal or retry), or a one-time purchase of a course or a digital download at checkout (billingReason one_time, subscriptionId null; userId and courseId or downloadId say who bought what).",
    dataType: "Payment",
  },
  "payment.failed": {
    description: "The payment provider refused a charge (failureCode, failureMessage say why); a renewal is retried on the schedule of docs/decisions.md, \"Billing\".",
    dataType: "Payment",
  },
  "subscription.renewed": {
    description: "A recurring subscription's next period began: charged and paid (charge_automatically) or renewed without a charge (external collection).",
    dataType: "Subscription",
  },
  "subscription.past_due": { description: "A renewal charge failed: the subscription is past_due until a retry succeeds or the last one fails.", dataType: "Subscription" },
  "subscription.activated": { description: "The first charge of an incomplete subscription succeeded: it is active.", dataType: "Subscription" },
  "subscription.incomplete_expired": {
    description: "An incomplete subscription's first charge was not paid within 23 hours: it ended (incomplete_expired).",
    dataType: "Subscription",
  },
  "subscription.paused": {
    description: "pauseSubscription paused the subscription (isPaused true): no charges, no access and no expiry until it is resumed; the state is kept.",
    dataType: "Subscription",
  },
  "subscription.resumed": {
    description: "resumeSubscription ended a pause: currentPeriodEnd (and a fixed endAt) moved forward by the time paused, and a recurring plan's next charge with it.",
    dataType: "Subscription",
  },
  "payment.refunded": {
    description: "refundPayment refunded (part of) a payment: refundedAmount is the total so far, state refunded once all of it is. The subscription and its access are not changed by a refund.",
    dataType: "Payment",
  },
  "subscription.plan_changed": {
    description:
      "The subscription moved to another plan (plan, planId): an upgrade by changeSubscriptionPlan (after its prorated charge, whose payment.succeeded comes with it), a change during a trial, or a scheduled downgrade taking effect at the renewal.",
    dataType: "Subscription",
  },
  "subscription.plan_change_scheduled": {
    description:
      "changeSubscriptionPlan scheduled a downgrade for the period end (scheduledPlanId is the new plan), or withdrew one (scheduledPlanId is null again); the plan itself changes at the renewal (subscription.plan_changed).",
    dataType: "Subscription",
  },
  "enrollment.created": {
    description: "enrollStudentToCourse enrolled a person, or a member enrolled on the storefront (a course bought at checkout, with its payment.succeeded, or a free one); enrolling twice is not a change: no event.",
    dataType: "Enrollment",
  },
  "webhook.ping": {
    description: "Staff sent a test event to this endpoint from the console: sent to that endpoint only, whatever events it lists; nothing changed in the school.",
    dataType: "WebhookEndpoint",
  },
};

/** Fields of a data type that events leave out (a subscription's payments are read through the API). */
export const OMITTED_DATA_FIELDS: Record<string, readonly string[]> = { Subscription: ["payments"] };

/** The envelope every delivery body has, around `data`. */
export const EVENT_ENVELOPE = [
  { path: "type", type: "String!", description: "The event type, one of eventTypes' type." },
  { path: "id", type: "String!", description: "The event's UUID: also the webhook-id header, the same on every retry and redelivery." },
  { path: "timestamp", type: "Int!", description: "Unix seconds of the change." },
] as const;
