import type { AdminOperation } from "../credentials/permissions";

// Who may call which tool: the scope an OAuth token needs, whether the token's user needs a staff
// role in the token's school, and the Admin permission an API key needs. One table, read by the
// HTTP layer (403 insufficient_scope before the tool runs) and by the tools (role and permission).

export const STAFF_ROLES = ["owner", "manager", "admin"] as const;

export interface ToolAccess {
  /** OAuth scope the token must carry; null: any credential of this school. */
  scope: string | null;
  /** The token's user must hold a staff role in the token's school. */
  staff: boolean;
  /** For an API key: the Admin permission needed; "any" for public catalog tools; null: member tools, not for keys. */
  apiKey: AdminOperation | "any" | null;
  /** Writes: counted as mutations by the per-minute limiter; take dry_run and idempotency_key. */
  writes: boolean;
}

export const TOOL_ACCESS = {
  search_catalog: { scope: null, staff: false, apiKey: "any", writes: false },
  get_page: { scope: null, staff: false, apiKey: "any", writes: false },
  list_membership_plans: { scope: null, staff: false, apiKey: "any", writes: false },
  get_my_profile: { scope: "openid", staff: false, apiKey: null, writes: false },
  list_my_subscriptions: { scope: "subscriptions:read", staff: false, apiKey: null, writes: false },
  list_my_enrollments: { scope: "courses:read", staff: false, apiKey: null, writes: false },
  // A member for themselves (token), or an API key for an email; it opens a checkout, buys nothing.
  create_checkout_link: { scope: "openid", staff: false, apiKey: "createSubscription", writes: false },
  list_subscriptions: { scope: "subscriptions:read", staff: true, apiKey: "subscriptions", writes: false },
  list_members: { scope: "students:read", staff: true, apiKey: "members", writes: false },
  get_member: { scope: "students:read", staff: true, apiKey: "member", writes: false },
  list_enrollments: { scope: "students:read", staff: true, apiKey: "enrollments", writes: false },
  create_subscription: { scope: "subscriptions:write", staff: true, apiKey: "createSubscription", writes: true },
  update_subscription: { scope: "subscriptions:write", staff: true, apiKey: "updateSubscription", writes: true },
  cancel_subscription: { scope: "subscriptions:write", staff: true, apiKey: "cancelSubscription", writes: true },
  pause_subscription: { scope: "subscriptions:write", staff: true, apiKey: "pauseSubscription", writes: true },
  resume_subscription: { scope: "subscriptions:write", staff: true, apiKey: "resumeSubscription", writes: true },
  refund_payment: { scope: "subscriptions:write", staff: true, apiKey: "refundPayment", writes: true },
  enroll_student: { scope: "enrollments:write", staff: true, apiKey: "enrollStudentToCourse", writes: true },
  list_webhook_endpoints: { scope: "webhooks:manage", staff: true, apiKey: "webhookEndpoints", writes: false },
  create_webhook_endpoint: { scope: "webhooks:manage", staff: true, apiKey: "createWebhookEndpoint", writes: true },
  update_webhook_endpoint: { scope: "webhooks:manage", staff: true, apiKey: "updateWebhookEndpoint", writes: true },
  delete_webhook_endpoint: { scope: "webhooks:manage", staff: true, apiKey: "deleteWebhookEndpoint", writes: true },
  rotate_webhook_secret: { scope: "webhooks:manage", staff: true, apiKey: "rotateWebhookSecret", writes: true },
  list_webhook_deliveries: { scope: "webhooks:manage", staff: true, apiKey: "webhookDeliveries", writes: false },
  redeliver_webhook_event: { scope: "webhooks:manage", staff: true, apiKey: "redeliverWebhookEvent", writes: true },
} as const satisfies Record<string, ToolAccess>;

export type ToolName = keyof typeof TOOL_ACCESS;

export const isToolName = (name: unknown): name is ToolName => typeof name === "string" && Object.hasOwn(TOOL_ACCESS, name);

/** Every scope a tool can need, plus what identifies the member: what /mcp asks clients to request. */
export const MCP_SCOPES = ["openid", "profile", "email", "courses:read", "students:read", "subscriptions:read", "subscriptions:write", "enrollments:write", "webhooks:manage"];
