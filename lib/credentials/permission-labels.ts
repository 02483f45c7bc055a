import { ADMIN_OPERATIONS, ALL_PERMISSIONS, type AdminOperation } from "./permissions";

/**
 * What each Admin API permission lets a key do, in words staff read when they create a key (the
 * console's check boxes). A Record over every operation, so a new operation cannot ship unlabelled.
 */
export const PERMISSION_LABELS: Record<AdminOperation, string> = {
  createSubscription: "Create subscriptions",
  updateSubscription: "Change a subscription's period",
  cancelSubscription: "Cancel subscriptions",
  pauseSubscription: "Pause subscriptions",
  resumeSubscription: "Resume paused subscriptions",
  changeSubscriptionPlan: "Move subscriptions to another plan",
  updateSubscriptionPaymentMethod: "Replace a subscription's payment method",
  refundPayment: "Refund payments",
  enrollStudentToCourse: "Enroll people in courses",
  courses: "Read courses",
  membershipPlans: "Read membership plans",
  subscription: "Read one subscription",
  subscriptions: "List subscriptions",
  members: "List and search members",
  member: "Read one member",
  enrollments: "List enrollments",
  payments: "List payments",
  auditEvents: "Read the audit log",
  webhookEndpoints: "List webhook endpoints",
  createWebhookEndpoint: "Create webhook endpoints",
  updateWebhookEndpoint: "Change webhook endpoints",
  deleteWebhookEndpoint: "Delete webhook endpoints",
  rotateWebhookSecret: "Rotate webhook signing secrets",
  webhookDeliveries: "Read webhook deliveries",
  redeliverWebhookEvent: "Redeliver webhook events",
};

/** The permissions grouped as the console shows them: what they touch, reads before writes. */
export const PERMISSION_GROUPS: readonly { title: string; operations: readonly AdminOperation[] }[] = [
  { title: "Catalogue", operations: ["courses", "membershipPlans"] },
  { title: "Members", operations: ["members", "member", "enrollments", "enrollStudentToCourse"] },
  {
    title: "Subscriptions and payments",
    operations: ["subscription", "subscriptions", "createSubscription", "updateSubscription", "cancelSubscription", "pauseSubscription", "resumeSubscription", "changeSubscriptionPlan", "updateSubscriptionPaymentMethod", "payments", "refundPayment"],
  },
  {
    title: "Webhooks",
    operations: ["webhookEndpoints", "webhookDeliveries", "createWebhookEndpoint", "updateWebhookEndpoint", "deleteWebhookEndpoint", "rotateWebhookSecret", "redeliverWebhookEvent"],
  },
  { title: "Audit log", operations: ["auditEvents"] },
];

/** Operations no group shows: must stay empty (permission-labels.test.ts). */
export const ungroupedOperations = (): AdminOperation[] =>
  ADMIN_OPERATIONS.filter((op) => !PERMISSION_GROUPS.some((g) => g.operations.includes(op)));

/** The console's and the CLI's choice that stores ALL_PERMISSIONS. */
export const ALL_PERMISSIONS_LABEL = "Every permission, including ones added later";

/** A key's stored permissions in words: "Every permission, …", the operations' labels, or "None". */
export function describePermissions(stored: readonly string[]): string {
  if (stored.includes(ALL_PERMISSIONS)) return ALL_PERMISSIONS_LABEL;
  return stored.length ? stored.map((p) => PERMISSION_LABELS[p as AdminOperation] ?? p).join(", ") : "None";
}
