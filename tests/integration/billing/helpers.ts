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
export const eventTypesOf = async (subjectId: string) =>
  (await db().webhookEvent.findMany({ where: { subjectId }, orderBy: [{ createdAt: "asc" }] })).map((e) => (JSON.parse(e.payload) as { type: string }).type);

/** Events of the subscription and of its payments, in the order written. */
export async function billingEventsOf(subscriptionId: string): Promise<string[]> {
  const payments = await db().payment.findMany({ where: { subscriptionId }, select: { id: true } });
  const rows = await db().webhookEvent.findMany({
    where: { subjectId: { in: [subscriptionId, ...payments.map((p) => p.id)] } },
    orderBy: [{ createdAt: "asc" }],
  });
  // Events of one time share createdAt and have no sequence: within a time, the order they are
  // written in (the subscription's creation, then a payment, then the transition it caused).
  const rank = (type: string) => (type === "subscription.created" ? 0 : type.startsWith("payment.") ? 1 : 2);
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
