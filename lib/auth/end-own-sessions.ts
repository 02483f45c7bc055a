import { now as clockNow } from "../clock";
import type { AuditActor } from "../db/audit";
import { db } from "../db/client";
import { endMemberSession } from "../oidc/end-member-session";

/**
 * A member signs out one of their sessions on `origin`, or every one there but the current one.
 * Each ends through endMemberSession (row revoked, Back-Channel Logout queued in its transaction).
 * Returns null when `sessionId` names no session of this member on this origin (the caller's 404);
 * a session of theirs already ended is not an error (a second submit of the same form). Each
 * session ended is audited at `schoolId` (the school of `origin`) in its own transaction.
 */
export async function endOwnSessions(options: {
  schoolId: string;
  actor: AuditActor;
  userId: string;
  origin: string;
  currentSessionId: string;
  target: { sessionId: string } | "all_others";
  now?: Date;
}): Promise<{ ended: number } | null> {
  const now = options.now ?? clockNow();
  const audit = { actor: options.actor, schoolId: options.schoolId };
  if (options.target === "all_others") {
    const rows = await db().memberSession.findMany({
      where: { userId: options.userId, origin: options.origin, revokedAt: null, id: { not: options.currentSessionId } },
      select: { id: true },
    });
    let ended = 0;
    for (const r of rows) if ((await endMemberSession({ sessionId: r.id, reason: "signed_out_elsewhere", now, audit })).ended) ended++;
    return { ended };
  }
  const { sessionId } = options.target;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) return null;
  const row = await db().memberSession.findFirst({ where: { id: sessionId, userId: options.userId, origin: options.origin }, select: { id: true } });
  if (!row) return null;
  const { ended } = await endMemberSession({ sessionId, reason: sessionId === options.currentSessionId ? "sign_out" : "signed_out_elsewhere", now, audit });
  return { ended: ended ? 1 : 0 };
}
