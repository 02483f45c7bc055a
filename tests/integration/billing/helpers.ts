import { expect } from "vitest";
import { db } from "@/lib/db/client";
import { gql, freshEmail, type SubscriptionJson } from "../admin-api/helpers";
import type { AppServer } from "../../helpers/app-server";

export const PAYMENT_FIELDS = `id amount currency state paidAt createdAt subscriptionId periodStart periodEnd billingReason provider
  providerPaymentId paymentMethodId attempt failureCode failureMessage failedAt refundedAmount refundedAt`;
export const BILLING_SUB_FIELDS = `id state collectionMethod currentPeriodStart currentPeriodEnd nextChargeDate canceledAt endAt cancelType
  plan { id price currency interval intervalCount }
  payments { ${PAYMENT_FIELDS} }`;
// AdminSubscription (createSubscription's) has no payments (spec): they are read with subscription(id).
export const CREATE_BILLED = `mutation Create($input: AdminCreateSubscriptionInput!) {
  createSubscription(input: $input) { errors subscription { id state collectionMethod } }
}`;
export const GET_BILLED = `query Get($id: String!) { subscription(id: $id) { ${BILLING_SUB_FIELDS} } }`;

export const CARDS = {
  visa: "4242424242424242",
  declined: "4000000000000002",
  insufficient: "4000000000009995",
  failsLater: "4000000000000341",
} as const;

/** Creates a subscription collected automatically with a test card, through the Admin API. */
export async function subscribeWithCard(app: AppServer, planId: string, card: string, extra: Record<string, unknown> = {}): Promise<SubscriptionJson> {
  const r = await gql(app, CREATE_BILLED, {
    input: { email: freshEmail("billing"), name: "Billed Member", planId, collectionMethod: "charge_automatically", paymentMethod: card, ...extra },
  });
  if (r.body?.data?.createSubscription?.errors?.length !== 0) throw new Error(`createSubscription failed: ${JSON.stringify(r.body)}`);
  const created = r.body.data.createSubscription.subscription;
  const read = await readBilled(app, created.id);
  if (read.state !== created.state) throw new Error(`read ${read.state} after createSubscription returned ${created.state}`);
  return read;
}

export async function readBilled(app: AppServer, id: string): Promise<SubscriptionJson> {
  const r = await gql(app, GET_BILLED, { id });
  return r.body.data.subscription;
}

/** The types of the events written about a subject, oldest first. */
// Suites run on a frozen clock, so createdAt ties; the ids are time-ordered (lib/db/time-ordered-id.ts)
// at the real time, which keeps the order of writing.
export const eventTypesOf = async (subjectId: string) =>
  (await db().webhookEvent.findMany({ where: { subjectId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => (JSON.parse(e.payload) as { type: string }).type);

/** Events of the subscription and of its payments, in the order written. */
export async function billingEventsOf(subscriptionId: string): Promise<string[]> {
  const payments = await db().payment.findMany({ where: { subscriptionId }, select: { id: true } });
  const rows = await db().webhookEvent.findMany({
    where: { subjectId: { in: [subscriptionId, ...payments.map((p) => p.id)] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  // Events of one time share createdAt and have no sequence: within a time, the order they are
  // written in (the subscription's creation, then a payment, then the transition it caused, then the
  // plan change that came with it). The rows' own order cannot say it: a statement writing many
  // events (a renewal batch) may place them in any free space of the table.
  const rank = (type: string) => (type === "subscription.created" ? 0 : type.startsWith("payment.") ? 1 : type === "subscription.plan_changed" ? 3 : 2);
  return rows
    .map((e, i) => ({ type: (JSON.parse(e.payload) as { type: string }).type, at: e.createdAt.getTime(), i }))
    .sort((a, b) => a.at - b.at || rank(a.type) - rank(b.type) || a.i - b.i)
    .map((e) => e.type);
}

/** Charges the test provider actually made for a subscription (its ledger), whatever our rows say. */
export async function providerChargesOf(subscriptionId: string) {
  return db().testProviderCharge.findMany({ where: { idempotencyKey: { startsWith: `sub_${subscriptionId}_` } }, orderBy: { createdAt: "asc" } });
}

/**
 * Plans for plan changes beside the demo's monthly one (29 USD a month): a dearer and a cheaper
 * monthly plan, a draft one and one in another currency. Created once per database (upserted).
 */
export const CHANGE_PLANS = {
  plus: "5c400000-0000-4000-8000-0003000000a1",
  basic: "5c400000-0000-4000-8000-0003000000a2",
  draft: "5c400000-0000-4000-8000-0003000000a3",
  euro: "5c400000-0000-4000-8000-0003000000a4",
} as const;

export async function ensureChangePlans(schoolId: string): Promise<void> {
  const rows = [
    { id: CHANGE_PLANS.plus, slug: "monthly-plus", name: "Monthly Plus", price: "49.00", currency: "USD", status: "published" as const },
    { id: CHANGE_PLANS.basic, slug: "monthly-basic", name: "Monthly Basic", price: "19.00", currency: "USD", status: "published" as const },
    { id: CHANGE_PLANS.draft, slug: "monthly-draft", name: "Monthly Draft", price: "99.00", currency: "USD", status: "draft" as const },
    { id: CHANGE_PLANS.euro, slug: "monthly-euro", name: "Monthly Euro", price: "59.00", currency: "EUR", status: "published" as const },
  ];
  for (const r of rows) {
    const data = { ...r, schoolId, planType: "recurring" as const, interval: "month" as const, intervalCount: 1, position: 10 };
    await db().membershipPlan.upsert({ where: { id: r.id }, create: data, update: {} });
  }
}

/**
 * The storefront checkout through HTTP, as a browser drives it: POST /api/checkout, the test
 * provider's pay form, the return page (tests/integration/billing/checkout*.test.ts).
 */
export function checkoutClient(app: AppServer, origin: string) {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const FORM = { "content-type": "application/x-www-form-urlencoded", origin };
  const start = (fields: Record<string, string>, cookie = "", headers: Record<string, string> = FORM) =>
    app.fetch("/api/checkout", { method: "POST", headers: { ...headers, ...(cookie ? { cookie } : {}) }, body: form(fields), redirect: "manual" });
  /** Starts a checkout; returns the hosted page path, the checkout id and the browser's token cookie. */
  const started = async (fields: Record<string, string>, cookie = "") => {
    const res = await start(fields, cookie);
    expect(res.status).toBe(303);
    const hosted = new URL(res.headers.get("location")!);
    expect(hosted.origin).toBe(origin);
    expect(hosted.pathname).toMatch(/^\/checkout\/test\/cs_test_[0-9a-f]{24}$/);
    const setCookie = res.headers.get("set-cookie")!;
    const token = /checkout_token=([^;]+)/.exec(setCookie)![1]!;
    const checkoutId = /Path=\/checkout\/complete\/([0-9a-f-]{36})/.exec(setCookie)![1]!;
    return { hostedPath: hosted.pathname, checkoutId, tokenCookie: `checkout_token=${token}` };
  };
  const pay = (hostedPath: string, card: string) =>
    app.fetch(`/api/checkout/test/${hostedPath.split("/").pop()!}`, { method: "POST", headers: FORM, body: form({ card }), redirect: "manual" });
  const returnTo = (checkoutId: string, cookie = "") => app.fetch(`/checkout/complete/${checkoutId}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  return { FORM, start, started, pay, returnTo };
}
