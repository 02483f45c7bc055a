import { z } from "zod";
import { hashPassword } from "./password";
import { hashSecret, randomToken } from "../credentials/secret";
import type { Db } from "../db/client";

/** How long a printed setup link works. */
export const PASSWORD_SETUP_TTL_HOURS = 72;
export const PASSWORD_SETUP_PATH = "/account/set-password";
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

type Tx = Pick<Db, "passwordSetupToken">;

/** Why a setup link cannot be used; the page shows one message per reason. */
export class PasswordSetupError extends Error {
  override name = "PasswordSetupError";
  constructor(
    readonly reason: "invalid_link" | "expired_link" | "used_link" | "weak_password" | "mismatch",
    message: string,
  ) {
    super(message);
  }
}

/** Issues a one-time token for a user: the token is returned once, only its hash is stored. */
export async function issuePasswordSetupToken(options: { tx: Tx; userId: string; now: Date; ttlHours?: number }) {
  const token = randomToken(32);
  const expiresAt = new Date(options.now.getTime() + (options.ttlHours ?? PASSWORD_SETUP_TTL_HOURS) * 3_600_000);
  await options.tx.passwordSetupToken.create({
    data: { userId: options.userId, tokenHash: hashSecret(token), expiresAt },
  });
  return { token, expiresAt };
}

export function passwordSetupUrl(origin: string, token: string): string {
  return `${origin}${PASSWORD_SETUP_PATH}?token=${encodeURIComponent(token)}`;
}

const tokenShape = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

async function findUsable(db: Pick<Db, "passwordSetupToken">, token: unknown, now: Date) {
  const parsed = tokenShape.safeParse(token);
  const row = parsed.success
    ? await db.passwordSetupToken.findUnique({ where: { tokenHash: hashSecret(parsed.data) }, include: { user: true } })
    : null;
  if (!row) throw new PasswordSetupError("invalid_link", "This link is not valid. Ask the school for a new one.");
  if (row.consumedAt) throw new PasswordSetupError("used_link", "This link has already been used. Sign in with your password.");
  if (row.expiresAt <= now) throw new PasswordSetupError("expired_link", "This link has expired. Ask the school for a new one.");
  return row;
}

/** The account a setup link is for, when the link can still be used (the page shows the email). */
export async function checkPasswordSetupToken(options: { db: Db; token: unknown; now: Date }) {
  const row = await findUsable(options.db, options.token, options.now);
  return { email: row.user.email };
}

/**
 * Sets the password and spends the token. The token is claimed with a conditional update first,
 * so two submissions of one link cannot both succeed.
 */
export async function completePasswordSetup(options: {
  db: Db;
  token: unknown;
  password: unknown;
  confirm: unknown;
  now: Date;
}): Promise<{ email: string }> {
  const { db, now } = options;
  const row = await findUsable(db, options.token, now);
  const password = typeof options.password === "string" ? options.password : "";
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new PasswordSetupError(
      "weak_password",
      `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters (at most ${MAX_PASSWORD_LENGTH}).`,
    );
  }
  if (options.confirm !== password) throw new PasswordSetupError("mismatch", "The two passwords did not match.");
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    const claimed = await tx.passwordSetupToken.updateMany({
      where: { id: row.id, consumedAt: null, expiresAt: { gt: now } },
      data: { consumedAt: now },
    });
    if (claimed.count !== 1) {
      throw new PasswordSetupError("used_link", "This link has already been used. Sign in with your password.");
    }
    await tx.user.update({
      where: { id: row.userId },
      // Not emailVerified: a setup link may have been printed by the CLI rather than mailed; only a
      // verification link proves the address (lib/auth/email-verification.ts).
      data: { passwordHash },
    });
    // A new password starts clean: no throttled sign-in for this account, no session from before.
    await tx.loginThrottle.deleteMany({ where: { key: `account:${row.user.email}` } });
    await tx.memberSession.updateMany({ where: { userId: row.userId, revokedAt: null }, data: { revokedAt: now } });
    // A newer link for the same account would otherwise still work after this one set the password.
    await tx.passwordSetupToken.updateMany({ where: { userId: row.userId, consumedAt: null }, data: { consumedAt: now } });
  });
  return { email: row.user.email };
}
