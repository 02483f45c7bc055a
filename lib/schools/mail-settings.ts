import { changedFields, recordAudit, type AuditActor } from "../db/audit";
import type { Db } from "../db/client";
import { MAIL_KINDS, type MailKind } from "../mail/enqueue";
import { schoolSender } from "../mail/sender";
import { SchoolCommandError } from "./errors";
import { findSchoolByRef } from "./find-school";
import { emailSchema } from "./rules";

const kinds = (list: string | undefined, flag: string): MailKind[] => {
  const names = (list ?? "").split(",").map((k) => k.trim()).filter(Boolean);
  for (const k of names) {
    if (!(MAIL_KINDS as readonly string[]).includes(k)) throw new SchoolCommandError(`${flag}: unknown mail "${k}"; choose from ${MAIL_KINDS.join(", ")}`);
  }
  return names as MailKind[];
};

/**
 * `school mail`: turns kinds of mail off or on for a school (every kind is on unless turned off)
 * and sets its sender address ("default": no-reply@ the platform domain). Returns the settings.
 * Audited (school.update_mail) when something changed.
 */
export async function setMailSettings(options: { db: Db; school: string; off?: string; on?: string; from?: string; now: Date; actor: AuditActor }) {
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  const off = kinds(options.off, "--off");
  const on = kinds(options.on, "--on");
  let mailFromAddress = school.mailFromAddress;
  if (options.from !== undefined) {
    if (options.from === "default") mailFromAddress = null;
    else {
      const parsed = emailSchema.safeParse(options.from);
      if (!parsed.success) throw new SchoolCommandError(`--from must be an email address or "default", got "${options.from}"`);
      mailFromAddress = parsed.data;
    }
  }
  const mailDisabled = MAIL_KINDS.filter((k) => (school.mailDisabled.includes(k) || off.includes(k)) && !on.includes(k));
  const updated = await options.db.$transaction(async (tx) => {
    const after = await tx.school.update({ where: { id: school.id }, data: { mailDisabled, mailFromAddress } });
    const summary = changedFields(school, after, ["mailDisabled", "mailFromAddress"]);
    if (Object.keys(summary).length) {
      await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: school.id, action: "school.update_mail", target: { type: "school", id: school.id }, summary } });
    }
    return after;
  });
  const sender = schoolSender(updated);
  return { school: updated, sender: `"${sender.name}" <${sender.address}>`, kinds: MAIL_KINDS.map((k) => ({ kind: k, on: !mailDisabled.includes(k) })) };
}
