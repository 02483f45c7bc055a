import { db } from "../db/client";
import { rawQuery } from "../db/raw";
import type { MailMessage } from "../db/generated/client";
import { env } from "../env";
import { platformBaseUrl, schoolLinkOrigin } from "../schools/links";
import { validBrandColor } from "../storefront/brand";
import { renderMail, type RenderedMail } from "./render";
import { schoolSender } from "./sender";
import { MAIL_TEMPLATES } from "./templates/index";
import { transmit } from "./transport";
import type { MailKind } from "./enqueue";

/** A claimed mail is this worker's for this long; a worker that dies loses it when the lease passes. */
export const MAIL_LEASE_MS = 60_000;
/** Waits after the 1st, 2nd, … failed attempt; after the last one the mail is marked failed. */
export const MAIL_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000];

/** The school as a claimed mail carries it: read with the claim, once for the batch. */
interface MailSchool {
  id: string;
  name: string;
  subdomain: string;
  customDomain: string | null;
  brandColor: string | null;
  mailFromAddress: string | null;
  disabledAt: Date | null;
}

type Claimed = MailMessage & { lease: Date; school: MailSchool | null };

// Claim, load and the school in one statement: a batch was three statements before the first mail
// (claim, load, and a school read per mail), which a new member's two mails paid while the Admin
// API's writes ran (docs/benchmarks.md, "createSubscription's cost").
const CLAIM_SQL = `
WITH claimed AS (
  UPDATE "MailMessage" m SET "lockedUntil" = $1
   WHERE m."id" IN (
     SELECT c."id" FROM "MailMessage" c
      WHERE c."status" = 'pending' AND c."nextAttemptAt" <= $2
        AND (c."lockedUntil" IS NULL OR c."lockedUntil" <= $2)
      ORDER BY c."nextAttemptAt", c."createdAt"
      LIMIT $3
      FOR UPDATE SKIP LOCKED)
  RETURNING m.*
)
SELECT c."id"::text AS "id", c."schoolId"::text AS "schoolId", c."userId"::text AS "userId", c."kind", c."to", c."params",
       c."status"::text AS "status", c."attemptCount", c."nextAttemptAt", c."lockedUntil", c."lastError", c."sentAt", c."createdAt",
       s."name" AS "schoolName", s."subdomain" AS "schoolSubdomain", s."customDomain" AS "schoolCustomDomain",
       s."brandColor" AS "schoolBrandColor", s."mailFromAddress" AS "schoolMailFromAddress",
       s."disabledAt" AS "schoolDisabledAt", (s."id" IS NOT NULL) AS "schoolFound"
  FROM claimed c LEFT JOIN "School" s ON s."id" = c."schoolId"
 ORDER BY c."createdAt", c."id"`;

type ClaimRow = MailMessage & {
  schoolName: string | null;
  schoolSubdomain: string | null;
  schoolCustomDomain: string | null;
  schoolBrandColor: string | null;
  schoolMailFromAddress: string | null;
  schoolDisabledAt: Date | null;
  schoolFound: boolean;
};

/**
 * Claims due mails like the webhook worker claims deliveries (lib/webhooks/deliver.ts): rows locked
 * FOR UPDATE SKIP LOCKED get a lease, so concurrent workers (instances, the cron route) never take
 * the same mail, and a mail is sent again only when a worker died before recording it.
 */
export async function claimDueMails(options: { now: Date; limit: number }): Promise<Claimed[]> {
  const { now, limit } = options;
  const lease = new Date(now.getTime() + MAIL_LEASE_MS);
  const rows = await rawQuery<ClaimRow>(CLAIM_SQL, [lease, now, limit], { name: "claim-due-mails" });
  return rows.map(({ schoolName, schoolSubdomain, schoolCustomDomain, schoolBrandColor, schoolMailFromAddress, schoolDisabledAt, schoolFound, ...mail }) => ({
    ...mail,
    lease,
    school: schoolFound
      ? { id: mail.schoolId, name: schoolName!, subdomain: schoolSubdomain!, customDomain: schoolCustomDomain, brandColor: schoolBrandColor, mailFromAddress: schoolMailFromAddress, disabledAt: schoolDisabledAt }
      : null,
  }));
}

/**
 * Renders a claimed mail in a transaction of its own (a link's token is stored before the mail that
 * carries it leaves); null when there is nothing to send any more. The member is read here, as they
 * are when the mail is sent; the school came with the claim.
 */
async function prepare(mail: Claimed, now: Date): Promise<{ rendered: RenderedMail; from: { name: string; address: string } } | null> {
  const template = MAIL_TEMPLATES[mail.kind as MailKind];
  if (!template) throw new Error(`unknown mail kind ${mail.kind}`);
  const school = mail.school;
  if (!school || school.disabledAt) return null;
  return db().$transaction(async (tx) => {
    const user = mail.userId
      ? await tx.user.findUnique({ where: { id: mail.userId }, select: { id: true, name: true, email: true, passwordHash: true, emailVerified: true } })
      : null;
    const brandColor = validBrandColor(school.brandColor);
    const content = await template.render({
      tx,
      school: { id: school.id, name: school.name, brandColor, origin: schoolLinkOrigin(school, platformBaseUrl(env())) },
      to: mail.to,
      user: user ? { id: user.id, name: user.name, email: user.email, hasPassword: Boolean(user.passwordHash), emailVerified: user.emailVerified } : null,
      params: (mail.params ?? {}) as Record<string, unknown>,
      now,
    });
    if (!content) return null;
    return { rendered: renderMail(content, { name: school.name, brandColor }), from: schoolSender(school) };
  });
}

export interface MailAttempt {
  id: string;
  status: "sent" | "skipped" | "retry" | "failed" | "lost";
}

/** One attempt at one claimed mail, and its record (only while this worker still holds the lease). */
export async function attemptMail(options: { mail: Claimed; now: () => Date; log?: (line: string) => void }): Promise<MailAttempt> {
  const { mail } = options;
  let status: MailAttempt["status"];
  let error: string | null = null;
  try {
    const prepared = await prepare(mail, options.now());
    if (!prepared) status = "skipped";
    else {
      await transmit({ id: mail.id, kind: mail.kind, to: mail.to, from: prepared.from, ...prepared.rendered }, options.log);
      status = "sent";
    }
  } catch (err) {
    const e = err as Error & { responseCode?: number };
    error = (e.message ?? String(err)).split("\n")[0]!.slice(0, 500);
    // 5xx: the server refuses this mail for good (unknown mailbox, rejected content); anything else may pass later.
    const permanent = typeof e.responseCode === "number" && e.responseCode >= 500;
    status = permanent || mail.attemptCount + 1 > MAIL_RETRY_DELAYS_MS.length ? "failed" : "retry";
  }
  const now = options.now();
  const attempts = mail.attemptCount + 1;
  const { count } = await db().mailMessage.updateMany({
    where: { id: mail.id, lockedUntil: mail.lease },
    data: {
      status: status === "retry" ? "pending" : status,
      attemptCount: attempts,
      nextAttemptAt: status === "retry" ? new Date(now.getTime() + MAIL_RETRY_DELAYS_MS[attempts - 1]!) : null,
      lockedUntil: null,
      lastError: error,
      sentAt: status === "sent" ? now : null,
    },
  });
  return { id: mail.id, status: count ? status : "lost" };
}

/** Sends every due mail, batch after batch, until none is due or the time budget is spent. */
export async function drainMail(options: { now: () => Date; batchSize?: number; budgetMs?: number; shouldContinue?: () => boolean; log?: (line: string) => void }) {
  const deadline = Date.now() + (options.budgetMs ?? 30_000);
  const results: MailAttempt[] = [];
  while (Date.now() < deadline && (options.shouldContinue?.() ?? true)) {
    const batch = await claimDueMails({ now: options.now(), limit: options.batchSize ?? 10 });
    if (!batch.length) break;
    for (const mail of batch) results.push(await attemptMail({ mail, now: options.now, log: options.log }));
  }
  return { attempted: results.length, sent: results.filter((r) => r.status === "sent").length };
}
