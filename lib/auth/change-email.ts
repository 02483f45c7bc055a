import { z } from "zod";
import { recordAudit, type AuditActor } from "../db/audit";
import { db } from "../db/client";
import { isUniqueViolation, TX_OPTIONS } from "../db/write-transaction";
import { enqueueMail } from "../mail/enqueue";
import { securityEvent } from "../security/events";
import { requestEmailVerification } from "./email-verification";
import { MAX_PASSWORD_LENGTH } from "./password-setup";
import { verifyPassword } from "./password";

export type ChangeEmailResult = { ok: true; changed: boolean } | { ok: false; reason: "wrong_password" | "invalid_email" | "email_taken" };

export const CHANGE_EMAIL_MESSAGES: Record<Exclude<Extract<ChangeEmailResult, { ok: false }>["reason"], "wrong_password">, string> = {
  invalid_email: "Enter a valid email address (at most 254 characters). Nothing was changed.",
  email_taken: "That email belongs to another account on this platform. Nothing was changed.",
};

const emailShape = z.email().max(254);

/**
 * A signed-in member changes their email (their sign-in name at every school), proving their
 * password. The new email is unverified until the link mailed to it is used: the change, the
 * cleared emailVerified, the verify-email mail to the new address and the email-changed notice to
 * the previous one commit together. An email of another account is
 * refused (the unique index decides, so two concurrent changes to one email cannot both win).
 * Submitting the same form twice is not an error: the email is already the new one. The change is
 * audited at the school where the member made it (`member.change_email`), in its transaction.
 */
export async function changeMemberEmail(options: { schoolId: string; userId: string; current: string; email: string; now: Date; actor: AuditActor }): Promise<ChangeEmailResult> {
  const { schoolId, userId, current, now, actor } = options;
  const email = options.email.trim().toLowerCase();
  if (!emailShape.safeParse(email).success) return { ok: false, reason: "invalid_email" };
  const user = await db().user.findUnique({ where: { id: userId }, select: { email: true, emailVerified: true, passwordHash: true } });
  if (!user?.passwordHash || current.length > MAX_PASSWORD_LENGTH || !(await verifyPassword(current, user.passwordHash))) return { ok: false, reason: "wrong_password" };
  if (user.email === email) return { ok: true, changed: false };
  if (await db().user.findUnique({ where: { email }, select: { id: true } })) return { ok: false, reason: "email_taken" };
  try {
    const changed = await db().$transaction(async (tx) => {
      // Conditional on the email read: a concurrent change of this account wins alone.
      const { count } = await tx.user.updateMany({ where: { id: userId, email: user.email }, data: { email, emailVerified: false } });
      if (count !== 1) return false;
      await requestEmailVerification({ tx, schoolId, userId, now });
      // The previous address hears of it in the same change: the owner's one warning if it was not them.
      await enqueueMail(tx, { schoolId, kind: "email-changed", to: user.email, userId, params: { newEmail: email }, now });
      const summary = { email: { from: user.email, to: email }, emailVerified: { from: user.emailVerified, to: false } };
      await recordAudit(tx, { actor, now, entry: { schoolId, action: "member.change_email", target: { type: "member", id: userId }, summary } });
      return true;
    }, TX_OPTIONS);
    // A concurrent submit of this form changed it first: the work is done.
    if (!changed) return { ok: true, changed: false };
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, reason: "email_taken" };
    throw err;
  }
  securityEvent("email.changed", { user_id: userId });
  return { ok: true, changed: true };
}
