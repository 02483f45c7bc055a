import type { PlanType, SubscriptionState } from "../db/generated/client";

// The spec's "States and transitions", in one place: every rule that asks what a state means
// (live, ended, cancellable, canceling) asks here. The time-driven transitions themselves are SQL in
// settle.ts, whose SQL spells LIVE_STATES out literally (keep the two equal).

export const SUBSCRIPTION_STATES: readonly SubscriptionState[] = [
  "active",
  "incomplete",
  "incomplete_expired",
  "trialing",
  "past_due",
  "canceled",
  "expired",
];

/** States that still give access and can still change: what updateSubscription moves and settle expires. */
export const LIVE_STATES: readonly SubscriptionState[] = ["active", "trialing", "past_due", "incomplete"];

/** States no transition leaves. */
export const ENDED_STATES: readonly SubscriptionState[] = ["canceled", "expired", "incomplete_expired"];

export const isSubscriptionState = (value: string): value is SubscriptionState =>
  (SUBSCRIPTION_STATES as readonly string[]).includes(value);

export const isLive = (state: SubscriptionState): boolean => LIVE_STATES.includes(state);

interface StateFacts {
  state: SubscriptionState;
  cancelAt: Date | null;
  plan: { planType: PlanType };
}

/** A cancellation is scheduled and has not yet taken effect. */
export const isCanceling = (s: Pick<StateFacts, "state" | "cancelAt">): boolean => s.cancelAt !== null && s.state !== "canceled";

/** Lifetime subscriptions and ended ones cannot be cancelled. */
export const isCancellable = (s: Pick<StateFacts, "state" | "plan">): boolean =>
  s.plan.planType !== "lifetime" && !ENDED_STATES.includes(s.state);
