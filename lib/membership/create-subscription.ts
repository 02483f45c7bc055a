import { db } from "../db/client";
import { fromUnixSeconds } from "../clock";
import { isUuid } from "../core/ids";
import type { SubscriptionRecord } from "./record-types";
import { failure, isUniqueViolation, success, type Payload, writeTransaction } from "../db/write-transaction";
import { recordEvent } from "../db/outbox";
import { recordAudit, type AuditActor } from "../db/audit";
import { subscriptionCreatedAudit } from "./audit-entries";
import { presentSubscription } from "./presenter";
import { settleDueSubscriptions } from "./settle";
import { subscribeNewMember } from "./subscribe-new-member";
import { forgetPlan, versionedPlan } from "./plan-cache";
import type { MembershipPlan } from "../db/generated/client";
import { addInterval } from "./time";
import { INVALID_EMAIL, findOrCreateMember, memberName, normalizeEmail } from "./users";
import { subscriptionInclude } from "./record-types";
import { chargeNow } from "../billing/charge-now";
import { providerFor } from "../billing/provider-for";

export interface CreateSubscriptionInput {
  email: string;
  name?: string | null;
  planId: string;
  expireAt?: number | null;
  initialChargeAt?: number | null;
  /** external (default, the spec's behaviour) or charge_automatically (docs/decisions.md, "Billing"). */
  collectionMethod?: string | null;
  /** charge_automatically only: a test card number or the provider's payment method reference. */
  paymentMethod?: string | null;
}

export const PLAN_NOT_FOUND = "Plan not found";
export const ALREADY_SUBSCRIBED = "User already subscribed to this plan";
export const INVALID_PLAN_TYPE = "Invalid plan type";
export const EXPIRE_AT_NOT_IN_FUTURE = "expireAt must be in the future";
export const INITIAL_CHARGE_NOT_IN_FUTURE = "initialChargeAt must be in the future";
export const PLAN_ALREADY_ENDED = "Plan end date has already passed; pass a future expireAt";
export const INVALID_COLLECTION_METHOD = "collectionMethod must be external or charge_automatically";
export const PAYMENT_METHOD_REQUIRED = "paymentMethod is required when collectionMethod is charge_automatically";
export const PAYMENT_METHOD_NOT_APPLICABLE = "paymentMethod applies only when collectionMethod is charge_automatically";

const LIVE_INDEX = "Subscription_live_user_plan_key";

type Periods = Pick<SubscriptionRecord, "startAt" | "currentPeriodStart" | "currentPeriodEnd" | "endAt" | "nextChargeDate">;

/**
 * Subscribes a user (created when new) to one of the school's plans, in one transaction.
 * Checks in order: email, plan, plan type vs expireAt/initialChargeAt, dates, name for new users,
 * one live subscription per user and plan (the partial unique index, so concurrent calls cannot
 * both succeed). A new user's call is one statement after the plan look-up (subscribe-new-member.ts);
 * an existing user's runs in a transaction: user, membership, settle check, subscription, events.
 */
export async function createSubscription(options: {
  schoolId: string;
  input: CreateSubscriptionInput;
  now: Date;
  /** Check and compute everything, write nothing (MCP's dry_run). */
  dryRun?: boolean;
  /** Who asks: written to the audit log with the subscription (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, input, dryRun } = options;
  const email = normalizeEmail(input.email);
  if (!email) return failure(INVALID_EMAIL);
  if (!isUuid(input.planId)) return failure(PLAN_NOT_FOUND);
  const name = memberName(input.name);
  const collection = input.collectionMethod ?? "external";
  if (collection !== "external" && collection !== "charge_automatically") return failure(INVALID_COLLECTION_METHOD);
  if (collection === "external" && input.paymentMethod !== null && input.paymentMethod !== undefined) return failure(PAYMENT_METHOD_NOT_APPLICABLE);
  if (collection === "charge_automatically") {
    if (!input.paymentMethod) return failure(PAYMENT_METHOD_REQUIRED);
    const plan = await db().membershipPlan.findFirst({ where: { id: input.planId, schoolId } });
    if (!plan) return failure(PLAN_NOT_FOUND);
    // Saved with the provider first: a card it refuses creates nothing.
    const attached = await (await providerFor({ schoolId })).attachPaymentMethod({ paymentMethod: input.paymentMethod });
    if (!attached.ok) return failure(attached.failureMessage);
    const paymentMethodId = attached.paymentMethodId;
    const created = await subscribe({ ...options, email, name, plan, contentVersion: null, final: true, paymentMethodId });
    if (!created?.record || dryRun || created.record.state !== "incomplete") return created!;
    // The first charge, at purchase (the member is present): active when paid, incomplete otherwise.
    await chargeNow({ subscriptionId: created.record.id, now: options.now });
    const charged = await db().subscription.findUniqueOrThrow({ where: { id: created.record.id }, include: subscriptionInclude });
    return success(charged);
  }
  // The usual case, a new person with a name, is one guarded statement (subscribe-new-member.ts)
  // with the plan from the process cache (plan-cache.ts). Only a success counts from a cached plan:
  // a refusal, a stale plan or a known email start over from a fresh read.
  const fast = name !== null && !dryRun;
  if (fast) {
    const cached = await versionedPlan({ schoolId, planId: input.planId });
    if (!cached) return failure(PLAN_NOT_FOUND);
    if (cached.cached) {
      const done = await subscribe({ ...options, email, name, plan: cached.plan, contentVersion: cached.contentVersion, final: false });
      if (done) return done;
      forgetPlan({ schoolId, planId: input.planId });
    } else {
      return (await subscribe({ ...options, email, name, plan: cached.plan, contentVersion: cached.contentVersion, final: true }))!;
    }
  }
  const found = fast
    ? await versionedPlan({ schoolId, planId: input.planId, fresh: true })
    : { plan: await db().membershipPlan.findFirst({ where: { id: input.planId, schoolId } }), contentVersion: null };
  if (!found?.plan) return failure(PLAN_NOT_FOUND);
  return (await subscribe({ ...options, email, name, plan: found.plan, contentVersion: fast ? found.contentVersion : null, final: true }))!;
}

/**
 * The checks that depend on the plan, then the writes. With `contentVersion` (a named new person,
 * no dry run) the new-member statement goes first, guarded by that version. Not `final` (a cached
 * plan): null instead of any answer but a success, so the caller starts over with a fresh plan.
 */
async function subscribe(options: {
  schoolId: string;
  input: CreateSubscriptionInput;
  email: string;
  name: string | null;
  plan: MembershipPlan;
  contentVersion: bigint | null;
  now: Date;
  dryRun?: boolean;
  final: boolean;
  /** Set: collected automatically with this saved payment method. */
  paymentMethodId?: string | null;
  actor: AuditActor;
}): Promise<Payload<SubscriptionRecord> | null> {
  const { schoolId, input, email, plan, now, dryRun, final } = options;
  const refuse = (message: string) => (final ? failure<SubscriptionRecord>(message) : null);
  const takesExpireAt = plan.planType === "fixed_date" || plan.planType === "specific_length";
  const hasExpireAt = input.expireAt !== null && input.expireAt !== undefined;
  const hasInitialCharge = input.initialChargeAt !== null && input.initialChargeAt !== undefined;
  if ((hasExpireAt && !takesExpireAt) || (hasInitialCharge && plan.planType !== "recurring")) {
    return refuse(INVALID_PLAN_TYPE);
  }
  if (hasExpireAt && fromUnixSeconds(input.expireAt!) <= now) return refuse(EXPIRE_AT_NOT_IN_FUTURE);
  if (hasInitialCharge && fromUnixSeconds(input.initialChargeAt!) <= now) return refuse(INITIAL_CHARGE_NOT_IN_FUTURE);

  let periods: Periods;
  switch (plan.planType) {
    case "recurring": {
      const end = hasInitialCharge ? fromUnixSeconds(input.initialChargeAt!) : addInterval(now, plan.interval ?? "month", plan.intervalCount);
      periods = { startAt: now, currentPeriodStart: now, currentPeriodEnd: end, endAt: null, nextChargeDate: end };
      break;
    }
    case "fixed_date":
    case "specific_length": {
      const end = hasExpireAt
        ? fromUnixSeconds(input.expireAt!)
        : plan.planType === "fixed_date"
          ? plan.fixedEndAt!
          : addInterval(now, plan.lengthInterval ?? "day", plan.lengthCount ?? 0);
      if (end <= now) return refuse(PLAN_ALREADY_ENDED);
      periods = { startAt: now, currentPeriodStart: now, currentPeriodEnd: end, endAt: end, nextChargeDate: null };
      break;
    }
    case "lifetime":
      periods = { startAt: now, currentPeriodStart: now, currentPeriodEnd: null, endAt: null, nextChargeDate: null };
      break;
  }

  // Collected automatically: a trial (initialChargeAt) until the first charge; otherwise the first
  // charge is due now and the subscription is incomplete until it is paid (Stripe's rules).
  const automatic = options.paymentMethodId ? { collectionMethod: "charge_automatically" as const, paymentMethodId: options.paymentMethodId } : null;
  const state = !automatic ? "active" : hasInitialCharge ? "trialing" : "incomplete";
  if (state === "incomplete") periods = { ...periods, nextChargeDate: now };

  if (options.name !== null && options.contentVersion !== null && !dryRun) {
    const record = await subscribeNewMember({ schoolId, email, name: options.name, plan, periods, now, contentVersion: options.contentVersion, actor: options.actor });
    if (record) return success(record);
    if (!final) return null;
  }

  try {
    return await writeTransaction({ dryRun }, async (tx) => {
      const member = await findOrCreateMember(tx, { schoolId, email, name: input.name, now });
      if ("error" in member) return failure<SubscriptionRecord>(member.error);
      const { user } = member;
      // A user created just now has no subscriptions. Otherwise one of theirs to this plan whose
      // end has passed must be settled first, or it would still count as live and block this one.
      if (!member.created) await settleDueSubscriptions({ tx, schoolId, userId: user.id, planId: plan.id, now });
      // No look-up for a live subscription first: the partial unique index refuses the insert.
      const created = await tx.subscription.create({
        data: { schoolId, userId: user.id, planId: plan.id, state, ...periods, ...automatic, createdAt: now, updatedAt: now },
      });
      const record: SubscriptionRecord = { ...created, plan, user };
      await recordEvent(tx, { event: { schoolId, type: "subscription.created", subjectId: created.id, data: presentSubscription(record) }, now });
      await recordAudit(tx, { actor: options.actor, now, entry: subscriptionCreatedAudit(record, member.created) });
      return success(record);
    });
  } catch (err) {
    // Another live subscription of this user and plan, committed before or concurrently.
    if (isUniqueViolation(err, LIVE_INDEX)) return failure(ALREADY_SUBSCRIBED);
    throw err;
  }
}
