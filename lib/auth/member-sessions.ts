import { now as clockNow } from "../clock";
import { db } from "../db/client";
import { securityEvent } from "../security/events";

/**
 * Absolute session lifetime: a member signs in again a week after signing in, however active.
 * The cookie only carries the session's id; the row decides whether it is still good.
 */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export interface LiveSession {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  /** When the member signed in (the row's creation): `prompt=login` needs a sign-in after a given time. */
  signedInAt: Date;
}

/** A new server-side session for a member who just signed in on `origin` (the only origin it works on). */
export async function createMemberSession(options: { userId: string; origin: string; now?: Date }): Promise<string> {
  const now = options.now ?? clockNow();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
  // Old rows of this member that can no longer be used go with each sign-in, so the table stays small.
  await db().memberSession.deleteMany({ where: { userId: options.userId, expiresAt: { lt: now } } });
  const row = await db().memberSession.create({ data: { userId: options.userId, origin: options.origin, createdAt: now, expiresAt }, select: { id: true } });
  return row.id;
}

/** The member behind a session id, when the session is unrevoked, unexpired and used on its own origin. */
export async function findLiveSession(options: { sessionId: string; origin: string; now?: Date }): Promise<LiveSession | null> {
  const now = options.now ?? clockNow();
  if (!/^[0-9a-f-]{36}$/.test(options.sessionId)) return null;
  const row = await db().memberSession.findUnique({
    where: { id: options.sessionId },
    select: { id: true, origin: true, createdAt: true, expiresAt: true, revokedAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  if (!row || row.revokedAt || row.expiresAt <= now || row.origin !== options.origin) return null;
  return { sessionId: row.id, userId: row.user.id, email: row.user.email, name: row.user.name, signedInAt: row.createdAt };
}

/** Ends a session for every copy of its cookie (sign-out). */
export async function revokeMemberSession(options: { sessionId: string; reason: string; now?: Date }): Promise<void> {
  if (!/^[0-9a-f-]{36}$/.test(options.sessionId)) return;
  const { count } = await db().memberSession.updateMany({
    where: { id: options.sessionId, revokedAt: null },
    data: { revokedAt: options.now ?? clockNow() },
  });
  if (count) securityEvent("session.revoked", { session_id: options.sessionId, reason: options.reason });
}
