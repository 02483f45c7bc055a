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

/** How often a live session's lastSeenAt is written: a write per request would cost every page. */
export const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

/** A new server-side session for a member who just signed in on `origin` (the only origin it works on). */
export async function createMemberSession(options: { userId: string; origin: string; userAgent?: string | null; now?: Date }): Promise<string> {
  const now = options.now ?? clockNow();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
  // Old rows of this member that can no longer be used go with each sign-in, so the table stays small.
  await db().memberSession.deleteMany({ where: { userId: options.userId, expiresAt: { lt: now } } });
  const userAgent = options.userAgent ? options.userAgent.slice(0, 256) : null;
  const row = await db().memberSession.create({
    data: { userId: options.userId, origin: options.origin, createdAt: now, expiresAt, lastSeenAt: now, userAgent },
    select: { id: true },
  });
  return row.id;
}

/** The member behind a session id, when the session is unrevoked, unexpired and used on its own origin. */
export async function findLiveSession(options: { sessionId: string; origin: string; now?: Date }): Promise<LiveSession | null> {
  const now = options.now ?? clockNow();
  if (!/^[0-9a-f-]{36}$/.test(options.sessionId)) return null;
  const row = await db().memberSession.findUnique({
    where: { id: options.sessionId },
    select: { id: true, origin: true, createdAt: true, expiresAt: true, revokedAt: true, lastSeenAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  if (!row || row.revokedAt || row.expiresAt <= now || row.origin !== options.origin) return null;
  if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    // Guarded by the value read, so concurrent requests write it once.
    await db().memberSession.updateMany({ where: { id: row.id, lastSeenAt: row.lastSeenAt }, data: { lastSeenAt: now } });
  }
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

export interface SessionListing {
  id: string;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
}

/** A member's live sessions on one origin (the account page of that origin), most recently seen first. */
export async function listLiveSessions(options: { userId: string; origin: string; currentSessionId: string; now?: Date }): Promise<SessionListing[]> {
  const now = options.now ?? clockNow();
  const rows = await db().memberSession.findMany({
    where: { userId: options.userId, origin: options.origin, revokedAt: null, expiresAt: { gt: now } },
    select: { id: true, userAgent: true, createdAt: true, lastSeenAt: true },
  });
  return rows
    .map((r) => ({ id: r.id, userAgent: r.userAgent, createdAt: r.createdAt, lastSeenAt: r.lastSeenAt ?? r.createdAt, current: r.id === options.currentSessionId }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.getTime() - a.lastSeenAt.getTime() || a.id.localeCompare(b.id));
}
