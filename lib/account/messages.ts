// What the account pages say after a form, by code: the forms redirect with `?done=` or `?error=`
// and a code from these tables, never a text from the URL (a link cannot make the page say anything).
import { CHANGE_EMAIL_MESSAGES } from "../auth/change-email";
import { CHANGE_PASSWORD_MESSAGES } from "../auth/change-password";
import { ALREADY_CANCELLED, NOT_CANCELLABLE } from "../membership/cancel-subscription";
import { SUBSCRIPTION_NOT_FOUND } from "../membership/change-subscription";
import { NOT_CANCELING } from "../membership/undo-cancellation";
import { ALREADY_PAUSED, CANCELING_NOT_PAUSABLE, LIFETIME_NOT_PAUSABLE, NOT_PAUSABLE, PAYMENT_IN_PROGRESS } from "../membership/pause-subscription";
import { NOT_PAUSED } from "../membership/resume-subscription";
import * as PLAN_CHANGE from "../billing/change-subscription-plan";
import type { Payload } from "../db/write-transaction";
import { UNKNOWN_TEST_CARD } from "../billing/test-provider";
import {
  NOT_CHARGED_AUTOMATICALLY,
  PAYMENT_METHOD_MISSING,
  PAYMENT_METHOD_NOT_UPDATABLE,
  PROVIDER_UNAVAILABLE,
  type PaymentMethodUpdate,
} from "../billing/update-payment-method";

export const DONE_MESSAGES: Record<string, string> = {
  name: "Your name is saved.",
  email: "Your email is changed. We sent a link to the new address: open it to confirm the address.",
  password: "Your password is changed. Your other sessions were signed out.",
  canceling: "Your membership will end at the end of the current period. You can undo this until then.",
  kept: "Your membership continues: the cancellation is undone.",
  paused: "Your membership is paused: no charges and no access until you resume it.",
  resumed: "Your membership is resumed. Your period end moved by the time it was paused.",
  plan_changed: "Your plan is changed. Any prorated charge is listed under Payments.",
  plan_scheduled: "Your plan changes at the end of the current period, when the new price is charged.",
  plan_kept: "Your plan stays as it is: the scheduled change is withdrawn.",
  revoked: "The app is disconnected. It can no longer use your account.",
  session_ended: "That session is signed out.",
  others_ended: "Every other session is signed out.",
  card_saved: "Your new payment method is saved. It pays your next renewal.",
  card_paid: "Your new payment method is saved and the overdue payment went through: your membership is active again.",
  enrolled: "You are enrolled: the course is listed below.",
  download_added: "The download is yours: it is listed below.",
  card_pending: "Your new payment method is saved. The payment provider has not confirmed the overdue payment yet: reload this page in a minute.",
};

/** updatePaymentMethod's refusals (the Admin API's messages), by code; a card's own decline is shown on the membership. */
export const PAYMENT_METHOD_ERRORS: Record<string, string> = {
  card_unknown: `${UNKNOWN_TEST_CARD.message} Nothing was changed.`,
  card_refused: "The payment provider refused this payment method. Nothing was changed.",
  card_declined: "Your new payment method is saved, but the overdue payment was declined (the reason is under the membership). We will try again on the date shown.",
  not_charged_automatically: NOT_CHARGED_AUTOMATICALLY,
  payment_method_not_updatable: PAYMENT_METHOD_NOT_UPDATABLE,
  payment_method_missing: "Enter a card number. Nothing was changed.",
  provider_unavailable: PROVIDER_UNAVAILABLE,
  payment_in_progress: PAYMENT_IN_PROGRESS,
};
const PAYMENT_METHOD_CODES: Record<string, string> = {
  [UNKNOWN_TEST_CARD.message]: "card_unknown",
  [NOT_CHARGED_AUTOMATICALLY]: "not_charged_automatically",
  [PAYMENT_METHOD_NOT_UPDATABLE]: "payment_method_not_updatable",
  [PAYMENT_METHOD_MISSING]: "payment_method_missing",
  [PROVIDER_UNAVAILABLE]: "provider_unavailable",
  [PAYMENT_IN_PROGRESS]: "payment_in_progress",
};

/** The account page's code for what updatePaymentMethod did. */
export function paymentMethodOutcome(result: Payload<PaymentMethodUpdate>): { done: string } | { error: string } {
  const message = result.errors[0];
  if (message !== undefined || !result.record) {
    return { error: message === undefined ? "not_found" : Object.hasOwn(PAYMENT_METHOD_CODES, message) ? PAYMENT_METHOD_CODES[message]! : message === SUBSCRIPTION_NOT_FOUND ? "not_found" : "card_refused" };
  }
  const charge = result.record.charge;
  if (charge === "failed") return { error: "card_declined" };
  return { done: charge === "succeeded" ? "card_paid" : charge === "unknown" ? "card_pending" : "card_saved" };
}

/** The membership verbs' own messages (the Admin API's), by code. */
export const MEMBERSHIP_ERRORS: Record<string, string> = {
  already_cancelled: ALREADY_CANCELLED,
  not_cancellable: NOT_CANCELLABLE,
  not_canceling: NOT_CANCELING,
  not_found: SUBSCRIPTION_NOT_FOUND,
  already_paused: ALREADY_PAUSED,
  not_pausable: NOT_PAUSABLE,
  lifetime_not_pausable: LIFETIME_NOT_PAUSABLE,
  canceling_not_pausable: CANCELING_NOT_PAUSABLE,
  payment_in_progress: PAYMENT_IN_PROGRESS,
  not_paused: NOT_PAUSED,
  plan_not_found: PLAN_CHANGE.PLAN_NOT_FOUND,
  plan_closed: PLAN_CHANGE.PLAN_CLOSED,
  plan_incompatible: PLAN_CHANGE.PLAN_INCOMPATIBLE,
  same_plan: PLAN_CHANGE.SAME_PLAN,
  already_on_plan: PLAN_CHANGE.ALREADY_ON_PLAN,
  change_ended: PLAN_CHANGE.CHANGE_ENDED,
  change_lifetime: PLAN_CHANGE.CHANGE_LIFETIME,
  change_not_recurring: PLAN_CHANGE.CHANGE_NOT_RECURRING,
  change_paused: PLAN_CHANGE.CHANGE_PAUSED,
  change_past_due: PLAN_CHANGE.CHANGE_PAST_DUE,
  change_incomplete: PLAN_CHANGE.CHANGE_INCOMPLETE,
  change_canceling: PLAN_CHANGE.CHANGE_CANCELING,
  provider_no_answer: PLAN_CHANGE.PROVIDER_NO_ANSWER,
  // A refused card's own message varies by provider: the page says what it means here.
  payment_refused: "Your card was refused for the prorated charge, so your plan was not changed.",
};

export const ERROR_MESSAGES: Record<string, string> = {
  ...CHANGE_PASSWORD_MESSAGES,
  ...CHANGE_EMAIL_MESSAGES,
  ...MEMBERSHIP_ERRORS,
  ...PAYMENT_METHOD_ERRORS,
  name: "Enter a name of 1 to 200 characters. Nothing was changed.",
};

export function membershipErrorCode(message: string, fallback = "not_found"): string {
  return Object.entries(MEMBERSHIP_ERRORS).find(([, m]) => m === message)?.[0] ?? fallback;
}

/** The message for a `done`/`error` query value, or null for an unknown code. */
export function accountNotice(params: { done?: string; error?: string }): { kind: "done" | "error"; text: string } | null {
  if (params.error && Object.hasOwn(ERROR_MESSAGES, params.error)) return { kind: "error", text: ERROR_MESSAGES[params.error]! };
  if (params.done && Object.hasOwn(DONE_MESSAGES, params.done)) return { kind: "done", text: DONE_MESSAGES[params.done]! };
  return null;
}
