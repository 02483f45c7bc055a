import { db } from "../db/client";
import { timeOrderedId } from "../db/time-ordered-id";
import type { MembershipPlan, Payment, Prisma, Subscription } from "../db/generated/client";
import { recordEvents, type OutboxEvent } from "../db/outbox";
import { TX_OPTIONS } from "../db/write-transaction";
import { changedFields, recordAudits, systemActor, type AuditActor, type AuditEntry } from "../db/audit";
import { AUDITED_SUBSCRIPTION_FIELDS } from "../membership/change-subscription";
import { enqueueBillingMails } from "../mail/billing-mails";
import { presentPayment, presentSubscription } from "../membership/presenter";
import { subscriptionInclude, type SubscriptionRecord } from "../membership/record-types";
import { LIVE_STATES } from "../membership/states";
import { addInterval } from "../membership/time";
import { ProviderUnavailableError, type ChargeResult, type PaymentProviderPort } from "./provider";
import { holdsPlan, recordProration } from "./record-proration";
import { RECONCILE_AFTER_MS, retryAt } from "./schedule";
import { providerNameFor, providerOfPayment } from "./provider-for";
import { sendCharge } from "./send-charge";
import { settlePayments } from "./settle-payments";

type Tx = Prisma.TransactionClient;

/** Billing steps are the platform's, whoever started the run (cron, worker, a purchase's first charge, a test clock). */
export const RENEWALS_ACTOR = systemActor("renewals");

export type CollectOutcome =
  | "renewed_without_charge"
  | "succeeded"
  | "failed"
  /** The provider did not answer: the payment stays pending and is reconciled on a later run. */
  | "unknown"
  /** Nothing was due any more (another worker, a cancellation, or the lease was lost). */
  | "skipped";

/** One subscription's step in a batch: its outcome, and whether it is still due at the run's `now` (a renewal run takes it no further). */
export interface Collected {
  id: string;
  outcome: CollectOutcome;
  dueAgain: boolean;
}

/** The period a charge of this subscription pays for, and why (Stripe's billing_reason). */
export function periodToCharge(s: SubscriptionRecord): { start: Date; end: Date | null; reason: "subscription_create" | "subscription_cycle" } {
  if (s.state === "incomplete") return { start: s.currentPeriodStart ?? s.createdAt, end: s.currentPeriodEnd, reason: "subscription_create" };
  const start = s.currentPeriodEnd!;
  return { start, end: addInterval(start, s.plan.interval ?? "month", s.plan.intervalCount), reason: "subscription_cycle" };
}

/** The provider's idempotency key of one attempt at one period: the same attempt is always the same charge. */
export const idempotencyKeyOf = (subscriptionId: string, periodStart: Date, attempt: number) =>
  `sub_${subscriptionId}_period_${periodStart.getTime()}_attempt_${attempt}`;

/**
 * Whether a member may pay a past_due subscription's missed period now, whatever its next retry
 * says (updatePaymentMethod): the same subscriptions a renewal run would retry, without the date.
 */
export const isRetryableNow = (s: SubscriptionRecord) =>
  s.state === "past_due" &&
  s.collectionMethod === "charge_automatically" &&
  s.cancelAt === null &&
  s.pausedAt === null &&
  s.plan.planType === "recurring" &&
  s.currentPeriodEnd !== null;

const isDue = (s: SubscriptionRecord, now: Date) =>
  LIVE_STATES.includes(s.state) &&
  s.cancelAt === null &&
  s.pausedAt === null &&
  s.nextChargeDate !== null &&
  s.nextChargeDate <= now &&
  (s.state === "incomplete" || (s.plan.planType === "recurring" && s.currentPeriodEnd !== null));

interface CollectOptions {
  lease: Date;
  now: Date;
  /** Only finish a pending payment (a provider's webhook said it moved): never start a charge. */
  reconcileOnly?: boolean;
  /** The member is present (a new payment method while past_due): charged now, not when due. */
  onSession?: boolean;
  /** The audit log's actor of the steps (default: the renewals job). */
  actor?: AuditActor;
}

/**
 * One step of billing for one subscription this worker has claimed (lease = its chargeLockedUntil):
 * collectSubscriptions with one id (see there).
 */
export async function collectSubscription(options: CollectOptions & { subscriptionId: string }): Promise<CollectOutcome> {
  const [one] = await collectSubscriptions({ ...options, subscriptionIds: [options.subscriptionId] });
  return one!.outcome;
}

/**
 * One step of billing for each subscription of a batch this worker has claimed (lease = their
 * chargeLockedUntil), in a fixed number of statements per batch plus one provider call per charge:
 * 1. one transaction, with the rows locked: a pending payment left by an earlier run is taken up
 *    (reconciliation); otherwise an externally collected subscription renews its period without a
 *    charge, and an automatically collected one gets a pending Payment for its next period (the
 *    unique indexes refuse a second for the same period and attempt), all in one INSERT;
 * 2. the provider is asked, outside any transaction, payment by payment, a few at once (send-charge.ts): for a
 *    pending payment from before, findCharge first, so a charge made before a time-out or a crash is
 *    found, not made again; then charge with the payment's idempotency key;
 * 3. one transaction, the outcomes: the payments (only while still pending), the subscriptions'
 *    transitions, their webhook events, audit rows and mails, each written set-based.
 * A crash or an outage between 1 and 3 leaves pending payments and the lease: after the lease, the
 * next run reconciles them from the provider before anything is charged again.
 * `onSession`: the member asked for this charge (a new payment method saved while past_due): due
 * while past_due whatever nextChargeDate says, charged on-session, and its failure leaves the state
 * and the retry schedule as they were (only off-session failures move them).
 * Returns one result per id, in order.
 */
export async function collectSubscriptions(options: CollectOptions & { subscriptionIds: readonly string[] }): Promise<Collected[]> {
  const { subscriptionIds, lease, now } = options;
  const actor = options.actor ?? RENEWALS_ACTOR;
  const opened = await db().$transaction(
    async (tx) => open(tx, { subscriptionIds, lease, now, reconcileOnly: !!options.reconcileOnly, onSession: options.onSession === true, actor }),
    TX_OPTIONS,
  );
  const done = opened.done;
  const providers = new Map<string, Promise<PaymentProviderPort>>();
  const asked: ({ payment: Payment; result: ChargeResult } | { payment: Payment; result: null })[] = [];
  let failure: unknown = null;
  let next = 0;
  // A few charges in flight at once: each is a provider's round trip (for the test provider, a
  // committed ledger row), so a batch waits for the slowest few, not for the sum of all.
  const lane = async () => {
    while (failure === null && next < opened.charges.length) {
      const i = next++;
      const { payment, reconcile } = opened.charges[i]!;
      try {
        const key = `${payment.schoolId} ${payment.provider}`;
        if (!providers.has(key)) providers.set(key, providerOfPayment({ schoolId: payment.schoolId, provider: payment.provider }));
        asked[i] = { payment, result: await sendCharge({ payment, reconcile, provider: await providers.get(key)! }) };
      } catch (err) {
        // Recorded what was answered first; the rest stay pending for reconciliation.
        if (!(err instanceof ProviderUnavailableError)) failure ??= err;
        else asked[i] = { payment, result: null };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHARGES_IN_FLIGHT, opened.charges.length) }, lane));
  const answered: { payment: Payment; result: ChargeResult }[] = [];
  const unknown: string[] = [];
  for (const one of asked) {
    if (!one) continue;
    if (one.result) answered.push({ payment: one.payment, result: one.result });
    else {
      unknown.push(subscriptionOf(one.payment));
      done.set(subscriptionOf(one.payment), { outcome: "unknown", dueAgain: false });
    }
  }
  if (unknown.length) {
    // Left pending; the lease moves to when they may be reconciled, so no run retries at once.
    await db().subscription.updateMany({
      where: { id: { in: unknown }, chargeLockedUntil: lease },
      data: { chargeLockedUntil: new Date(now.getTime() + RECONCILE_AFTER_MS) },
    });
  }
  // A payment taken up from an earlier run is that run's: only a charge this call started is the caller's.
  const reconciled = new Set(opened.charges.filter((c) => c.reconcile).map((c) => c.payment.id));
  const actorOf = (payment: Payment) => (reconciled.has(payment.id) ? RENEWALS_ACTOR : actor);
  for (const { payment, result } of answered.filter((a) => a.payment.billingReason === "subscription_update")) {
    // An upgrade's proration whose answer was lost: recorded as changeSubscriptionPlan would have.
    const outcome = await db().$transaction(async (tx) => recordProration(tx, { payment, result, now, actor: actorOf(payment) }), TX_OPTIONS);
    // Whatever else is due waits for the next run (one step per subscription per run).
    done.set(payment.subscriptionId!, { outcome: outcome.kind, dueAgain: true });
  }
  // One transaction per actor: a renewal run's batch is all the renewals job's, so one.
  const cycle = answered.filter((a) => a.payment.billingReason !== "subscription_update");
  for (const who of new Set(cycle.map((a) => actorOf(a.payment)))) {
    const results = cycle.filter((a) => actorOf(a.payment) === who);
    const recorded = await db().$transaction(async (tx) => record(tx, { results, now, actor: who }), TX_OPTIONS);
    for (const [id, one] of recorded) done.set(id, one);
  }
  if (failure) throw failure;
  return subscriptionIds.map((id) => ({ id, outcome: "skipped" as const, dueAgain: true, ...done.get(id) }));
}

type Step = { outcome: CollectOutcome; dueAgain: boolean };

/** A payment's subscription: billing collects subscriptions' payments only (a one-time purchase is paid at checkout). */
const subscriptionOf = (p: { subscriptionId: string | null }): string => p.subscriptionId!;

/** Provider calls of a batch in flight at once. */
const CHARGES_IN_FLIGHT = 8;
interface Opened {
  /** Steps already taken (skipped, renewed without a charge). */
  done: Map<string, Step>;
  /** Payments to ask the provider about. */
  charges: { payment: Payment; reconcile: boolean }[];
}

async function open(
  tx: Tx,
  options: { subscriptionIds: readonly string[]; lease: Date; now: Date; reconcileOnly: boolean; onSession: boolean; actor: AuditActor },
): Promise<Opened> {
  const { lease, now, onSession, actor } = options;
  const done = new Map<string, Step>();
  const charges: Opened["charges"] = [];
  // The row locks order this against cancellations and updates of the same subscriptions (taken in id order: no deadlock between batches).
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id"::text AS "id" FROM "Subscription" WHERE "id" = ANY(${[...options.subscriptionIds]}::text[]::uuid[]) AND "chargeLockedUntil" = ${lease} ORDER BY "id" FOR UPDATE`;
  if (!locked.length) return { done, charges };
  const ids = locked.map((r) => r.id);
  // Charged in the order they came due (pending ones, with no date, first), as one at a time did.
  const subs = await tx.subscription.findMany({ where: { id: { in: ids } }, include: subscriptionInclude, orderBy: [{ nextChargeDate: { sort: "asc", nulls: "first" } }, { id: "asc" }] });
  const pending = new Map<string, Payment>();
  for (const p of await tx.payment.findMany({ where: { subscriptionId: { in: ids }, state: "pending" }, orderBy: { createdAt: "asc" } })) {
    if (!pending.has(subscriptionOf(p))) pending.set(subscriptionOf(p), p);
  }
  const release: string[] = [];
  const toCharge: { s: SubscriptionRecord; period: ReturnType<typeof periodToCharge>; plan: MembershipPlan }[] = [];
  const renewed: SubscriptionWrite[] = [];
  for (const s of subs) {
    const payment = pending.get(s.id);
    if (payment) {
      charges.push({ payment, reconcile: true });
      continue;
    }
    if (options.reconcileOnly || !(onSession ? isRetryableNow(s) : isDue(s, now))) {
      release.push(s.id);
      done.set(s.id, { outcome: "skipped", dueAgain: true });
      continue;
    }
    const period = periodToCharge(s);
    // A downgrade scheduled for this period end (changeSubscriptionPlan): the next period is the new plan's.
    const scheduled =
      period.reason === "subscription_cycle" && s.scheduledPlanId && !(await holdsPlan(tx, s, s.scheduledPlanId))
        ? await tx.membershipPlan.findUnique({ where: { id: s.scheduledPlanId } })
        : null;
    if (s.collectionMethod === "external") {
      renewed.push({
        before: s,
        data: { currentPeriodStart: period.start, currentPeriodEnd: period.end, nextChargeDate: period.end, chargeLockedUntil: null, ...(scheduled ? { planId: scheduled.id, scheduledPlanId: null } : {}) },
      });
      done.set(s.id, { outcome: "renewed_without_charge", dueAgain: period.end !== null && period.end <= now });
      continue;
    }
    toCharge.push({ s, period, plan: scheduled ?? s.plan });
  }
  if (release.length) await tx.subscription.updateMany({ where: { id: { in: release } }, data: { chargeLockedUntil: null } });
  if (renewed.length) await renewWithoutCharge(tx, { writes: renewed, now, actor });
  if (!toCharge.length) return { done, charges };

  // Attempt numbers: the failed attempts of each period so far (one query for the batch).
  const failed = new Map<string, number>();
  const earlier = await tx.payment.findMany({
    where: { subscriptionId: { in: toCharge.map((c) => c.s.id) }, state: "failed", billingReason: { not: "subscription_update" } },
    select: { subscriptionId: true, periodStart: true },
  });
  for (const f of earlier) failed.set(periodKey(subscriptionOf(f), f.periodStart), (failed.get(periodKey(subscriptionOf(f), f.periodStart)) ?? 0) + 1);
  // The school's provider now; each payment keeps it (providerOfPayment finishes it there).
  const providerNames = new Map<string, "stripe" | "test">();
  for (const schoolId of new Set(toCharge.map((c) => c.s.schoolId))) providerNames.set(schoolId, await providerNameFor(tx, { schoolId }));
  const rows = toCharge.map(({ s, period, plan }) => {
    const attempt = (failed.get(periodKey(s.id, period.start)) ?? 0) + 1;
    return {
      id: timeOrderedId(),
      schoolId: s.schoolId,
      subscriptionId: s.id,
      amount: plan.price,
      currency: plan.currency,
      state: "pending" as const,
      periodStart: period.start,
      periodEnd: period.end,
      billingReason: period.reason,
      provider: providerNames.get(s.schoolId)!,
      paymentMethodId: s.paymentMethodId,
      idempotencyKey: idempotencyKeyOf(s.id, period.start, attempt),
      attempt,
      planId: plan.id,
      offSession: !onSession && period.reason === "subscription_cycle",
      createdAt: now,
      updatedAt: now,
    };
  });
  // A payment the unique indexes refuse (one of its period is already collected) is not made; its
  // subscription keeps the lease and is left for the next runs (skipped).
  const created = await tx.payment.createManyAndReturn({ data: rows, skipDuplicates: true });
  const byId = new Map(created.map((p) => [p.id, p]));
  for (const row of rows) {
    const payment = byId.get(row.id);
    if (payment) charges.push({ payment, reconcile: false });
    else done.set(row.subscriptionId, { outcome: "skipped", dueAgain: true });
  }
  return { done, charges };
}

const periodKey = (subscriptionId: string, periodStart: Date | null) => `${subscriptionId} ${periodStart?.getTime() ?? "none"}`;

/** Externally collected subscriptions whose period ended: the next period, without a charge (and a scheduled downgrade with it). */
async function renewWithoutCharge(tx: Tx, options: { writes: SubscriptionWrite[]; now: Date; actor: AuditActor }): Promise<void> {
  const { writes, now, actor } = options;
  const updated = await writeSubscriptions(tx, { writes, now });
  const events: OutboxEvent[] = [];
  const audits: AuditEntry[] = [];
  for (const { before } of writes) {
    const after = updated.get(before.id)!;
    events.push(subscriptionEvent(after, "subscription.renewed"));
    if (after.planId !== before.planId) events.push(subscriptionEvent(after, "subscription.plan_changed"));
    audits.push({ schoolId: before.schoolId, action: "subscription.renew", target: { type: "subscription", id: before.id }, summary: changedFields(before, after, AUDITED_SUBSCRIPTION_FIELDS) });
  }
  await recordEvents(tx, { events, now });
  await recordAudits(tx, { actor, entries: audits, now });
}

function subscriptionEvent(s: SubscriptionRecord, type: OutboxEvent["type"]): OutboxEvent {
  return { schoolId: s.schoolId, type, subjectId: s.id, data: presentSubscription(s) };
}

/** The columns a billing step moves. */
type SubscriptionChange = Partial<
  Pick<
    Subscription,
    "state" | "planId" | "scheduledPlanId" | "currentPeriodStart" | "currentPeriodEnd" | "nextChargeDate" | "cancelType" | "canceledAt" | "endAt" | "chargeLockedUntil"
  >
>;
interface SubscriptionWrite {
  /** The row as read under its lock in this transaction. */
  before: SubscriptionRecord;
  data: SubscriptionChange;
}

// Every column a step may move, set to its value after the step (the rows are locked and were read
// in this transaction, so "unchanged" is the value read): one statement for the batch.
const WRITE_SQL = `
UPDATE "Subscription" s
   SET "state" = x."state"::"SubscriptionState", "planId" = x."planId", "scheduledPlanId" = x."scheduledPlanId",
       "currentPeriodStart" = x."currentPeriodStart", "currentPeriodEnd" = x."currentPeriodEnd", "nextChargeDate" = x."nextChargeDate",
       "cancelType" = x."cancelType", "canceledAt" = x."canceledAt", "endAt" = x."endAt",
       "chargeLockedUntil" = x."chargeLockedUntil", "updatedAt" = $2::timestamptz
  FROM jsonb_to_recordset($1::jsonb) AS x("id" uuid, "state" text, "planId" uuid, "scheduledPlanId" uuid, "currentPeriodStart" timestamptz,
       "currentPeriodEnd" timestamptz, "nextChargeDate" timestamptz, "cancelType" text, "canceledAt" timestamptz, "endAt" timestamptz,
       "chargeLockedUntil" timestamptz)
 WHERE s."id" = x."id"`;

/** Applies the steps' changes in one statement and reads the subscriptions back (with plan and member). */
async function writeSubscriptions(tx: Tx, options: { writes: SubscriptionWrite[]; now: Date }): Promise<Map<string, SubscriptionRecord>> {
  const { writes, now } = options;
  const rows = writes.map(({ before, data }) => {
    const after = { ...before, ...data };
    return {
      id: after.id,
      state: after.state,
      planId: after.planId,
      scheduledPlanId: after.scheduledPlanId,
      currentPeriodStart: after.currentPeriodStart,
      currentPeriodEnd: after.currentPeriodEnd,
      nextChargeDate: after.nextChargeDate,
      cancelType: after.cancelType,
      canceledAt: after.canceledAt,
      endAt: after.endAt,
      chargeLockedUntil: after.chargeLockedUntil,
    };
  });
  await tx.$executeRawUnsafe(WRITE_SQL, JSON.stringify(rows), now);
  const read = await tx.subscription.findMany({ where: { id: { in: rows.map((r) => r.id) } }, include: subscriptionInclude });
  return new Map(read.map((s) => [s.id, s]));
}

/** The provider's answers of a batch: payments, transitions, events, audit rows and mails, in one transaction. */
async function record(tx: Tx, options: { results: { payment: Payment; result: ChargeResult }[]; now: Date; actor: AuditActor }): Promise<Map<string, Step>> {
  const { results, now, actor } = options;
  const steps = new Map<string, Step>();
  // Only pending payments take an outcome: a second recorder (a worker that lost its lease) changes nothing.
  const paid = await settlePayments(tx, { results, now });
  if (!paid.length) return steps;
  const ids = paid.map(subscriptionOf);
  await tx.$queryRaw`SELECT 1 FROM "Subscription" WHERE "id" = ANY(${ids}::text[]::uuid[]) ORDER BY "id" FOR UPDATE`;
  const subs = new Map((await tx.subscription.findMany({ where: { id: { in: ids } }, include: subscriptionInclude })).map((s) => [s.id, s]));
  // The retry schedule counts the renewal's own attempts of the period, not the ones a member made meanwhile.
  const scheduledFailures = new Map<string, number>();
  const failedOff = paid.filter((p) => p.state === "failed" && p.offSession);
  if (failedOff.length) {
    const rows = await tx.payment.findMany({
      where: { subscriptionId: { in: failedOff.map(subscriptionOf) }, state: "failed", offSession: true },
      select: { subscriptionId: true, periodStart: true },
    });
    for (const f of rows) scheduledFailures.set(periodKey(subscriptionOf(f), f.periodStart), (scheduledFailures.get(periodKey(subscriptionOf(f), f.periodStart)) ?? 0) + 1);
  }
  const writes: (SubscriptionWrite & { payment: Payment; type: OutboxEvent["type"] | null })[] = [];
  for (const payment of paid) {
    const s = subs.get(subscriptionOf(payment))!;
    const succeeded = payment.state === "succeeded";
    const base: SubscriptionChange = { chargeLockedUntil: null };
    // A subscription that ended or was set to cancel meanwhile keeps its state: the payment is recorded as it went.
    const applies = LIVE_STATES.includes(s.state) && s.cancelAt === null;
    let data = base;
    let type: OutboxEvent["type"] | null = null;
    if (applies && succeeded && payment.billingReason === "subscription_create") {
      data = { ...base, state: "active", nextChargeDate: s.plan.planType === "recurring" ? s.currentPeriodEnd : null };
      type = "subscription.activated";
    } else if (applies && succeeded) {
      data = { ...base, state: "active", currentPeriodStart: payment.periodStart, currentPeriodEnd: payment.periodEnd, nextChargeDate: payment.periodEnd };
      type = "subscription.renewed";
      // The period paid is the scheduled downgrade's: the plan switches with it.
      if (payment.planId && payment.planId !== s.planId && !(await holdsPlan(tx, s, payment.planId))) data = { ...data, planId: payment.planId, scheduledPlanId: null };
    } else if (applies && payment.billingReason === "subscription_create") {
      // No automatic retry of a first charge (Stripe's incomplete): it expires unless paid.
      data = { ...base, nextChargeDate: null };
    } else if (applies && !payment.offSession) {
      // The member's own attempt (updatePaymentMethod) failed: still past_due, the next retry unchanged.
      data = base;
    } else if (applies) {
      const next = retryAt(now, scheduledFailures.get(periodKey(s.id, payment.periodStart)) ?? 0);
      if (next) {
        data = { ...base, state: "past_due", nextChargeDate: next };
        type = s.state === "past_due" ? null : "subscription.past_due";
      } else {
        data = { ...base, state: "canceled", cancelType: "payment_failed", canceledAt: now, endAt: now, nextChargeDate: null };
        type = "subscription.canceled";
      }
    }
    writes.push({ before: s, data, payment, type });
  }
  const updated = await writeSubscriptions(tx, { writes, now });
  const events: OutboxEvent[] = [];
  const audits: AuditEntry[] = [];
  for (const { before: s, payment, type } of writes) {
    const after = updated.get(s.id)!;
    const succeeded = payment.state === "succeeded";
    events.push({ schoolId: payment.schoolId, type: succeeded ? "payment.succeeded" : "payment.failed", subjectId: payment.id, data: presentPayment(payment) });
    if (type) events.push(subscriptionEvent(after, type));
    if (after.planId !== s.planId) events.push(subscriptionEvent(after, "subscription.plan_changed"));
    const summary = {
      subscriptionId: s.id,
      payment: { state: { from: "pending", to: payment.state }, amount: payment.amount, currency: payment.currency, failureCode: payment.failureCode },
      ...changedFields(s, after, AUDITED_SUBSCRIPTION_FIELDS),
    };
    audits.push({ schoolId: payment.schoolId, action: succeeded ? "payment.collect" : "payment.fail", target: { type: "payment", id: payment.id }, summary });
    const dueAgain = after.nextChargeDate !== null && after.nextChargeDate <= now && LIVE_STATES.includes(after.state);
    steps.set(s.id, { outcome: succeeded ? "succeeded" : "failed", dueAgain });
  }
  await recordEvents(tx, { events, now });
  await recordAudits(tx, { actor, entries: audits, now });
  await enqueueBillingMails(tx, { events, now });
  return steps;
}
