import { z } from "zod";
import { hashSecret, randomToken } from "../credentials/secret";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { enqueueMail } from "../mail/enqueue";

/** How long a verification link works. */
export const EMAIL_VERIFICATION_TTL_HOURS = 72;
export const VERIFY_EMAIL_PATH = "/account/verify-email";

type Tx = Prisma.TransactionClient;

export class EmailVerificationError extends Error {
  override name = "EmailVerificationError";
  constructor(
    readonly reason: "invalid_link" | "expired_link" | "used_link",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Asks for a verification mail to the member's current email, in the caller's transaction when it
 * passes one (a change of email and its verification mail commit together). The account profile's
 * "change email" calls this after setting the new email and clearing emailVerified.
 */
export async function requestEmailVerification(options: { tx: Tx; schoolId: string; userId: string; now: Date }): Promise<string | null> {
  const user = await options.tx.user.findUnique({ where: { id: options.userId }, select: { email: true, emailVerified: true } });
  if (!user || user.emailVerified) return null;
  return enqueueMail(options.tx, { schoolId: options.schoolId, kind: "verify-email", to: user.email, userId: options.userId, now: options.now });
}

/** Issued by the verify-email mail when it is sent: the token goes into the mail only, its hash here. */
export async function issueEmailVerificationToken(options: { tx: Pick<Tx, "emailVerificationToken">; userId: string; email: string; now: Date }) {
  const token = randomToken(32);
  const expiresAt = new Date(options.now.getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3_600_000);
  await options.tx.emailVerificationToken.create({ data: { userId: options.userId, email: options.email, tokenHash: hashSecret(token), expiresAt } });
  return { token, expiresAt };
}

export const verifyEmailUrl = (origin: string, token: string) => `${origin}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;

const tokenShape = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

async function findUsable(db: Pick<Db, "emailVerificationToken">, token: unknown, now: Date) {
  const parsed = tokenShape.safeParse(token);
  const row = parsed.success
    ? await db.emailVerificationToken.findUnique({ where: { tokenHash: hashSecret(parsed.data) }, include: { user: { select: { email: true, emailVerified: true } } } })
    : null;
  // A link for an email the account no longer has proves nothing about the current one.
  if (!row || row.user.email !== row.email) throw new EmailVerificationError("invalid_link", "This link is not valid. Sign in and ask for a new one.");
  if (row.consumedAt || row.user.emailVerified) throw new EmailVerificationError("used_link", "Your email address is already confirmed.");
  if (row.expiresAt <= now) throw new EmailVerificationError("expired_link", "This link has expired. Sign in and ask for a new one.");
  return row;
}

/** The email a verification link is for, when it can still be used (the page asks to confirm it). */
export async function checkEmailVerificationToken(options: { db: Db; token: unknown; now: Date }) {
  const row = await findUsable(options.db, options.token, options.now);
  return { email: row.email };
}

/**
 * Marks the email verified and spends the link (every link of the account). A GET of the link only
 * shows a button: mail scanners fetch links, and a fetch must not verify anything.
 */
export async function verifyEmail(options: { db: Db; token: unknown; now: Date }): Promise<{ email: string }> {
  const { db, now } = options;
  const row = await findUsable(db, options.token, now);
  await db.$transaction(async (tx) => {
    const claimed = await tx.emailVerificationToken.updateMany({ where: { id: row.id, consumedAt: null, expiresAt: { gt: now } }, data: { consumedAt: now } });
    if (claimed.count !== 1) throw new EmailVerificationError("used_link", "Your email address is already confirmed.");
    // Only while the account still has the email the link was sent to (a change meanwhile wins).
    await tx.user.updateMany({ where: { id: row.userId, email: row.email }, data: { emailVerified: true } });
    await tx.emailVerificationToken.updateMany({ where: { userId: row.userId, consumedAt: null }, data: { consumedAt: now } });
  });
  return { email: row.email };
}
