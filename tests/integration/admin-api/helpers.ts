import { ACME_API_KEY, DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import type { AppServer } from "../../helpers/app-server";

export const FULL_KEY = DEFAULT_DEMO_API_KEY;
export const NO_PERMISSIONS_KEY = DEFAULT_DEMO_API_KEY_NO_PERMISSIONS;
export { ACME_API_KEY, DEMO_IDS };
export const PLANS = DEMO_IDS.plans;

/** The instant the Admin API suites freeze the service clock at. */
export const TEST_NOW = new Date("2026-11-21T12:00:00Z");

/**
 * One suite's app: before the suite, the demo data, the clock frozen at `now` (null leaves it
 * running) and the app behind an HTTP server; after it, the clock restored and the server closed.
 * The returned server forwards to the one started before the suite.
 */
export function adminAppForSuite(options: { now?: Date | null } = {}): AppServer {
  return appForSuite({ now: options.now === undefined ? TEST_NOW : options.now });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SubscriptionJson = Record<string, any>;

export interface GqlResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** POSTs a GraphQL operation to /admin/graphql with the given key (null: no key header). */
export async function gql(
  app: AppServer,
  query: string,
  variables: Record<string, unknown> = {},
  options: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<GqlResult> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  const key = options.key === undefined ? FULL_KEY : options.key;
  if (key !== null) headers["x-service-api-key"] = key;
  const res = await app.fetch("/admin/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export const SUB_FIELDS = `id state planId startAt currentPeriodStart currentPeriodEnd endAt nextChargeDate cancelAt canceledAt
  isCanceling isCancellable createdAt updatedAt cancelType
  plan { id name planType interval intervalCount isLifetime price currency }
  user { id email name }`;

export const CREATE = `mutation Create($input: AdminCreateSubscriptionInput!) {
  createSubscription(input: $input) { errors subscription { ${SUB_FIELDS} } }
}`;
export const UPDATE = `mutation Update($input: AdminUpdateSubscriptionInput!) {
  updateSubscription(input: $input) { errors subscription { ${SUB_FIELDS} payments { id amount currency state paidAt } } }
}`;
export const CANCEL = `mutation Cancel($input: AdminCancelSubscriptionInput!) {
  cancelSubscription(input: $input) { errors subscription { ${SUB_FIELDS} } }
}`;
export const GET_SUBSCRIPTION = `query Get($id: String!) { subscription(id: $id) { ${SUB_FIELDS} } }`;

let counter = 0;
/** A fresh email per call so tests do not collide on "already subscribed". */
export const freshEmail = (tag = "member") => `${tag}.${Date.now().toString(36)}.${counter++}@example.com`;

export async function subscribe(app: AppServer, planId: string, extra: Record<string, unknown> = {}) {
  const r = await gql(app, CREATE, { input: { email: freshEmail(), name: "Test Member", planId, ...extra } });
  if (r.body?.data?.createSubscription?.errors?.length !== 0) {
    throw new Error(`createSubscription failed: ${JSON.stringify(r.body)}`);
  }
  return r.body.data.createSubscription.subscription;
}
