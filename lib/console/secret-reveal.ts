// Secrets the console shows once (a new API key, a webhook signing secret, an OAuth client secret).
// A console action ends in a redirect (./form-guard.ts), and its notice is stored in plain text for
// double submits, so the secret cannot travel in the notice or the URL. The action seals it under
// AUTH_SECRET for this member session and this form; the page it redirects to takes it (read and
// deleted in one statement) and shows it. A reload, a second tab, another member or another
// session finds nothing, and an unread secret is gone after 10 minutes.
import { authSecret } from "../auth/auth-secret";
import { seal, unseal } from "../credentials/sealed";
import { db } from "../db/client";
import { isUuid } from "../core/ids";

export const REVEAL_TTL_MS = 10 * 60 * 1000;
const PURPOSE = "console-secret-reveal";

/** Keeps `secret` for the page of this session's form `formToken` (called inside the form's action). */
export async function keepSecretForReveal(o: { sessionId: string; formToken: string; secret: string; now: Date }): Promise<void> {
  const sealed = seal(o.secret, { authSecret: authSecret(), purpose: PURPOSE });
  const expiresAt = new Date(o.now.getTime() + REVEAL_TTL_MS);
  // Unread reveals of anyone past their time go with each new one: the table stays tiny.
  await db().consoleSecretReveal.deleteMany({ where: { expiresAt: { lte: o.now } } });
  await db().consoleSecretReveal.upsert({
    where: { sessionId_formToken: { sessionId: o.sessionId, formToken: o.formToken } },
    create: { sessionId: o.sessionId, formToken: o.formToken, sealed, expiresAt },
    update: { sealed, expiresAt },
  });
}

/** The secret kept for this session's form, once: the row is deleted as it is read. */
export async function takeSecretReveal(o: { sessionId: string; formToken: string | undefined; now: Date }): Promise<string | null> {
  if (!o.formToken || !isUuid(o.formToken)) return null;
  const rows = await db().$queryRaw<{ sealed: string; expiresAt: Date }[]>`
    DELETE FROM "ConsoleSecretReveal" WHERE "sessionId" = ${o.sessionId}::uuid AND "formToken" = ${o.formToken}::uuid
    RETURNING "sealed", "expiresAt"`;
  const row = rows[0];
  if (!row || row.expiresAt <= o.now) return null;
  try {
    return unseal(row.sealed, { authSecret: authSecret(), purpose: PURPOSE });
  } catch {
    // Sealed under an AUTH_SECRET that changed meanwhile: nothing to show.
    return null;
  }
}
