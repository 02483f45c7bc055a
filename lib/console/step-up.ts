// Step-up: sensitive console actions (API keys, OAuth clients, webhook secrets, refunds) need a
// password entered on this session in the last 10 minutes, like OpenID Connect's prompt=login with
// max_age=600. The session row keeps when the password was last entered (authenticatedAt, else the
// sign-in); entering it again here moves that time, so the member is not signed out to act.
import { authenticateMember } from "../auth/login";
import { db } from "../db/client";
import type { ConsoleStaff } from "./access";

export const STEP_UP_MAX_AGE_MS = 10 * 60 * 1000;

/** The form field of the step-up password (never stored, never part of an idempotency hash). */
export const STEP_UP_FIELD = "stepUpPassword";

/** Whether the staff member must enter their password again before a sensitive action. */
export function needsStepUp(staff: Pick<ConsoleStaff, "authenticatedAt">, now: Date): boolean {
  return now.getTime() - staff.authenticatedAt.getTime() >= STEP_UP_MAX_AGE_MS;
}

export const STEP_UP_MESSAGES = {
  required: "Enter your password again: this action needs a sign-in from the last 10 minutes. Nothing was changed.",
  invalid: "That password is not right. Nothing was changed.",
  throttled: "Too many wrong passwords: wait a few minutes, then try again. Nothing was changed.",
} as const;

export type StepUpResult = { ok: true } | { ok: false; reason: keyof typeof STEP_UP_MESSAGES };

/**
 * The check before a sensitive action: passes while the last password entry is recent; otherwise
 * checks `password` (the login's own check, with its throttling) and, when right, records the entry
 * on the session. Call it before the action's transaction; a failure leaves everything unchanged.
 */
export async function requireStepUp(o: { staff: Pick<ConsoleStaff, "authenticatedAt" | "session">; password: string | null; address: string | null; now: Date }): Promise<StepUpResult> {
  if (!needsStepUp(o.staff, o.now)) return { ok: true };
  if (!o.password) return { ok: false, reason: "required" };
  const result = await authenticateMember({ credentials: { email: o.staff.session.email, password: o.password }, address: o.address, now: o.now });
  if (!result.ok) return { ok: false, reason: result.reason };
  if (result.member.id !== o.staff.session.userId) return { ok: false, reason: "invalid" };
  await db().memberSession.updateMany({ where: { id: o.staff.session.sessionId, revokedAt: null }, data: { authenticatedAt: o.now } });
  return { ok: true };
}
