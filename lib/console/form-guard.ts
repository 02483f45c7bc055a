// The console's server actions accept a post only from the console's own pages: the browser's
// Origin must be this host's origin (Sec-Fetch-Site same-origin when a browser sends no Origin or
// `Origin: null`: ./same-origin.ts), and each rendered form carries a token that makes its action run once: a second submit of the same
// form (a double click, a reload, a replayed request) answers the first one's outcome without
// acting again (lib/idempotency/run-once.ts, keyed by the member session).
import { randomUUID } from "node:crypto";
import { isUuid } from "../core/ids";
import { db } from "../db/client";
import { requestHashOf, runOnce } from "../idempotency/run-once";
import type { ConsoleStaff } from "./access";
import { CROSS_SITE_MESSAGE } from "./same-origin";
import { STEP_UP_FIELD } from "./step-up";


export const FORM_TOKEN_FIELD = "formToken";

/** A fresh token for one rendered form. */
export const newFormToken = () => randomUUID();

export interface ConsoleNotice {
  kind: "done" | "error";
  text: string;
}

export const FORM_MESSAGES = {
  crossSite: CROSS_SITE_MESSAGE,
  expired: "This form expired. Nothing was changed: reload the page and try again.",
  inProgress: "This form is still being handled. Reload the page in a moment to see its outcome.",
  reused: "This form was already used for another change. Nothing was changed: reload the page and try again.",
  invalid: "This form holds a character no field may hold (NUL) or is too large. Nothing was changed.",
} as const;

const MAX_FIELDS = 32;
const MAX_FIELD_LENGTH = 8 * 1024;

/** Whether a form is one the console's actions can read: few, short text fields without NUL. */
export function isReadableForm(form: FormData): boolean {
  let n = 0;
  for (const [k, v] of form) {
    if (++n > MAX_FIELDS || typeof v !== "string" || k.includes("\0") || v.includes("\0") || v.length > MAX_FIELD_LENGTH) return false;
  }
  return true;
}

export type FormRefusal = keyof typeof FORM_MESSAGES;

/** The message of a refusal code (`?refused=<code>`), or null for anything else. */
export const refusalNotice = (code: string | undefined): ConsoleNotice | null =>
  code && Object.hasOwn(FORM_MESSAGES, code) ? { kind: "error", text: FORM_MESSAGES[code as FormRefusal] } : null;

/** The fields that identify what a form asks for: every field but the token and the step-up password. */
function requestFields(form: FormData): [string, string][] {
  const fields: [string, string][] = [];
  for (const [k, v] of form) if (typeof v === "string" && k !== FORM_TOKEN_FIELD && k !== STEP_UP_FIELD && !k.startsWith("$ACTION")) fields.push([k, v]);
  return fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Runs one console action once per form token: the first submit executes and its notice is stored
 * under (session, token); a repeat gets that notice back without executing. The notice is what the
 * page shows after the redirect (`consoleNotice`), so a link cannot make the console say anything.
 */
export async function runConsoleForm(o: { staff: ConsoleStaff; action: string; form: FormData; now: Date }, execute: () => Promise<ConsoleNotice>): Promise<{ token: string; notice: ConsoleNotice } | { refused: FormRefusal }> {
  const token = o.form.get(FORM_TOKEN_FIELD);
  if (typeof token !== "string" || !isUuid(token)) return { refused: "expired" };
  const once = await runOnce(
    { schoolId: o.staff.school.id, owner: { sessionId: o.staff.session.sessionId }, key: `console:${token}`, requestHash: requestHashOf([o.action, requestFields(o.form)]), now: o.now },
    async () => {
      const notice = await execute();
      return { value: notice, body: JSON.stringify(notice) };
    },
  );
  switch (once.kind) {
    case "executed":
      return { token, notice: once.value };
    case "replayed":
      return { token, notice: JSON.parse(once.body) as ConsoleNotice };
    case "reused":
      return { refused: "reused" };
    case "in_progress":
      return { refused: "inProgress" };
  }
}

/** The notice a form left for this session (`?notice=<token>` after its redirect), or null. */
export async function consoleNotice(o: { sessionId: string; token: string | undefined; now: Date }): Promise<ConsoleNotice | null> {
  if (!o.token || !isUuid(o.token)) return null;
  const row = await db().idempotencyKey.findUnique({ where: { sessionId_key: { sessionId: o.sessionId, key: `console:${o.token}` } }, select: { responseStatus: true, responseBody: true, expiresAt: true } });
  if (!row || row.responseStatus === 0 || row.expiresAt <= o.now) return null;
  try {
    const parsed = JSON.parse(row.responseBody) as Partial<ConsoleNotice>;
    if ((parsed.kind === "done" || parsed.kind === "error") && typeof parsed.text === "string") return { kind: parsed.kind, text: parsed.text };
  } catch {
    // A row of another kind: no notice.
  }
  return null;
}
