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

/**
 * The stored permission of a key made with every permission ("all" in the CLI, the school's first
 * key, the console's "Every permission" box): every operation, including ones added after the key
 * was made, as Stripe's standard keys and GitHub's classic scopes do. A key with a list of
 * operations keeps exactly that list: a new operation never widens it (docs/decisions.md, "API key
 * permissions: every permission, or a list").
 */
export const ALL_PERMISSIONS = "*";

/** A key's stored permissions: ALL_PERMISSIONS alone, or operation names. */
export type StoredPermission = AdminOperation | typeof ALL_PERMISSIONS;

/**
 * The operations a key's stored permissions grant now: every one for ALL_PERMISSIONS, else the
 * stored names that are still operations (a name removed from ADMIN_OPERATIONS grants nothing).
 */
export function grantedOperations(stored: readonly string[]): AdminOperation[] {
  if (stored.includes(ALL_PERMISSIONS)) return [...ADMIN_OPERATIONS];
  return stored.filter(isAdminOperation);
}

/** Message of the payload-level error for a credential without the operation's permission (spec). */
export const UNAUTHORIZED = "Unauthorized";
