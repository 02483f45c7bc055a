/** Admin API operations a key can be allowed to run; one permission per operation. */
export const ADMIN_OPERATIONS = [
  "createSubscription",
  "updateSubscription",
  "cancelSubscription",
  "pauseSubscription",
  "resumeSubscription",
  "changeSubscriptionPlan",
  "refundPayment",
  "updateSubscriptionPaymentMethod",
  "enrollStudentToCourse",
  "courses",
  "membershipPlans",
  "subscription",
  "subscriptions",
  "members",
  "member",
  "enrollments",
  "payments",
  "auditEvents",
  "webhookEndpoints",
  "createWebhookEndpoint",
  "updateWebhookEndpoint",
  "deleteWebhookEndpoint",
  "rotateWebhookSecret",
  "webhookDeliveries",
  "redeliverWebhookEvent",
] as const;

export type AdminOperation = (typeof ADMIN_OPERATIONS)[number];

export function isAdminOperation(name: string): name is AdminOperation {
  return (ADMIN_OPERATIONS as readonly string[]).includes(name);
}

/** Message of the payload-level error for a credential without the operation's permission (spec). */
export const UNAUTHORIZED = "Unauthorized";
