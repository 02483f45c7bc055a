// What the account pages say after a form, by code: the forms redirect with `?done=` or `?error=`
// and a code from these tables, never a text from the URL (a link cannot make the page say anything).
import { CHANGE_EMAIL_MESSAGES } from "../auth/change-email";
import { CHANGE_PASSWORD_MESSAGES } from "../auth/change-password";
import { ALREADY_CANCELLED, NOT_CANCELLABLE } from "../membership/cancel-subscription";
import { SUBSCRIPTION_NOT_FOUND } from "../membership/change-subscription";
import { NOT_CANCELING } from "../membership/undo-cancellation";

export const DONE_MESSAGES: Record<string, string> = {
  name: "Your name is saved.",
  email: "Your email is changed. We sent a link to the new address: open it to confirm the address.",
  password: "Your password is changed. Your other sessions were signed out.",
  canceling: "Your membership will end at the end of the current period. You can undo this until then.",
  kept: "Your membership continues: the cancellation is undone.",
  revoked: "The app is disconnected. It can no longer use your account.",
  session_ended: "That session is signed out.",
  others_ended: "Every other session is signed out.",
};

/** The membership verbs' own messages (the Admin API's), by code. */
export const MEMBERSHIP_ERRORS: Record<string, string> = {
  already_cancelled: ALREADY_CANCELLED,
  not_cancellable: NOT_CANCELLABLE,
  not_canceling: NOT_CANCELING,
  not_found: SUBSCRIPTION_NOT_FOUND,
};

export const ERROR_MESSAGES: Record<string, string> = {
  ...CHANGE_PASSWORD_MESSAGES,
  ...CHANGE_EMAIL_MESSAGES,
  ...MEMBERSHIP_ERRORS,
  name: "Enter a name of 1 to 200 characters. Nothing was changed.",
};

export function membershipErrorCode(message: string): string {
  return Object.entries(MEMBERSHIP_ERRORS).find(([, m]) => m === message)?.[0] ?? "not_found";
}

/** The message for a `done`/`error` query value, or null for an unknown code. */
export function accountNotice(params: { done?: string; error?: string }): { kind: "done" | "error"; text: string } | null {
  if (params.error && Object.hasOwn(ERROR_MESSAGES, params.error)) return { kind: "error", text: ERROR_MESSAGES[params.error]! };
  if (params.done && Object.hasOwn(DONE_MESSAGES, params.done)) return { kind: "done", text: DONE_MESSAGES[params.done]! };
  return null;
}
