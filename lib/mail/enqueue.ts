import { timeOrderedId } from "../db/time-ordered-id";
import type { Prisma } from "../db/generated/client";

type Tx = Pick<Prisma.TransactionClient, "school" | "mailMessage">;

/** The kinds of mail this service sends; each is on unless the school lists it in School.mailDisabled. */
export const MAIL_KINDS = ["welcome", "verify-email", "password-reset", "purchase-receipt", "renewal-receipt", "payment-failed", "payment-refunded", "subscription-canceled", "subscription-ending-soon", "email-changed"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface MailRequest {
  schoolId: string;
  kind: MailKind;
  to: string;
  /** The member the mail is about: their current name, email and state are read when it is sent. */
  userId?: string | null;
  /** The template's data: stored as is, so never a secret (links with tokens are made when sending). */
  params?: Record<string, string | number | boolean | null>;
  now: Date;
}

/**
 * Puts a mail in the outbox inside the caller's transaction: a rolled-back change sends nothing, a
 * committed one is delivered by the mail worker (lib/mail/deliver.ts), once. Returns the row id, or
 * null when the school turned this kind of mail off.
 */
export async function enqueueMail(tx: Tx, mail: MailRequest): Promise<string | null> {
  const school = await tx.school.findUnique({ where: { id: mail.schoolId }, select: { mailDisabled: true } });
  if (!school || school.mailDisabled.includes(mail.kind)) return null;
  const id = timeOrderedId();
  await tx.mailMessage.create({ data: mailRow(id, mail) });
  return id;
}

// The schools' switches are read by the statement itself: a kind a school turned off is not written.
const ENQUEUE_MAILS_SQL = `
INSERT INTO "MailMessage" ("id", "schoolId", "userId", "kind", "to", "params", "status", "attemptCount", "nextAttemptAt", "createdAt")
SELECT x."id", x."schoolId", x."userId", x."kind", x."to", x."params", 'pending', 0, x."nextAttemptAt", x."createdAt"
  FROM jsonb_to_recordset($1::jsonb) AS x("id" uuid, "schoolId" uuid, "userId" uuid, "kind" text, "to" text, "params" jsonb,
       "nextAttemptAt" timestamptz, "createdAt" timestamptz)
  JOIN "School" sc ON sc."id" = x."schoolId"
 WHERE NOT (x."kind" = ANY(sc."mailDisabled"))`;

/**
 * enqueueMail for several mails in one statement (a renewal run's batch); a kind its school turned
 * off is skipped, as enqueueMail skips it.
 */
export async function enqueueMails(tx: Pick<Prisma.TransactionClient, "$executeRawUnsafe">, mails: MailRequest[]): Promise<void> {
  if (!mails.length) return;
  await tx.$executeRawUnsafe(ENQUEUE_MAILS_SQL, JSON.stringify(mails.map((mail) => mailRow(timeOrderedId(), mail))));
}

function mailRow(id: string, mail: MailRequest) {
  return {
    id,
    schoolId: mail.schoolId,
    userId: mail.userId ?? null,
    kind: mail.kind,
    to: mail.to,
    params: mail.params ?? {},
    // Due now even when `now` is a test clock's future time (docs/decisions.md, "Test clock").
    nextAttemptAt: new Date(Math.min(mail.now.getTime(), Date.now())),
    createdAt: mail.now,
  };
}

/**
 * The same as data-modifying CTEs, for callers that write in one raw statement (createSubscription's
 * new-member path): one mail of each kind to the user the statement inserts, skipping the kinds the
 * school turned off. `user` names the CTE returning the new user's "id"; the other arguments are SQL
 * expressions (placeholders) of the statement; `when` a condition for writing at all.
 */
export function mailCtes(options: { name: string; kinds: MailKind[]; user: string; schoolId: string; to: string; now: string; when?: string }): string {
  const kinds = options.kinds.map((k) => `('${k}')`).join(", ");
  return `${options.name} AS (
  INSERT INTO "MailMessage" ("id", "schoolId", "userId", "kind", "to", "params", "status", "attemptCount", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid(), ${options.schoolId}, ${options.user}."id", k."kind", ${options.to}, '{}'::jsonb, 'pending', 0, LEAST(${options.now}, clock_timestamp()), ${options.now}
    FROM ${options.user} CROSS JOIN (VALUES ${kinds}) AS k("kind") JOIN "School" sc ON sc."id" = ${options.schoolId}
   WHERE NOT (k."kind" = ANY(sc."mailDisabled"))${options.when ? ` AND ${options.when}` : ""}
  RETURNING "id"
)`;
}
