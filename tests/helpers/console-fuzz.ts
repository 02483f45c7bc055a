// What the staff console's seeded fuzz files share (tests/integration/fuzz/console-*.test.ts): the
// host they run on, the seed and number of runs, hostile text, the form a post carries, and the
// check every answer of a console action passes (a redirect on this origin, 404 or 403; a notice
// that leaks nothing).
import fc from "fast-check";
import { expect } from "vitest";
import { now } from "@/lib/clock";
import { consoleAccess } from "@/lib/console/access";
import { consoleNotice, FORM_TOKEN_FIELD, type ConsoleNotice } from "@/lib/console/form-guard";
import type { ActionAnswer } from "@/lib/console/perform";

export const CONSOLE_FUZZ_RUNS = Number(process.env.FUZZ_RUNS_CONSOLE ?? 150);
export const CONSOLE_FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261126);
export const CONSOLE_HOST = "demo.localhost";
export const CONSOLE_ORIGIN = `http://${CONSOLE_HOST}`;

/** Internals that never reach a page: a stack frame, a module path, the database's words. */
export const INTERNALS_LEAK: readonly RegExp[] = [/\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+/, /node_modules/, /prisma|P20\d\d/i, /\bSELECT\b.+\bFROM\b/i];

/** Strings a form field or a search parameter may carry: short random text, known troublemakers, ids; `extra` adds the caller's own. */
export function hostileText(extra: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom("", "\u0000", "x".repeat(5000), "<script>alert(1)</script>", "' OR 1=1 --", "😀", "not-a-uuid", "2026-02-31", "9999-12-31", ...extra),
    fc.uuid(),
  );
}

/** A console form's body: its run-once token (none when null) and fields, a list's values each appended. */
export function consoleForm(token: string | null, fields: Record<string, string | readonly string[] | undefined>): FormData {
  const form = new FormData();
  if (token !== null) form.set(FORM_TOKEN_FIELD, token);
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (typeof v === "string") form.set(k, v);
    else for (const item of v) form.append(k, item);
  }
  return form;
}

/** The request headers of a console post from this school's own pages (`origin` overrides). */
export const consoleHeaders = (cookie: string, origin = CONSOLE_ORIGIN) => new Headers({ host: CONSOLE_HOST, origin, ...(cookie ? { cookie } : {}) });

/** The console session's id behind a signed-in staff member's cookie. */
export async function staffSessionId(cookie: string): Promise<string> {
  const access = await consoleAccess({ headers: consoleHeaders(cookie) });
  if (access.kind !== "staff") throw new Error("the cookie is no staff member's");
  return access.session.sessionId;
}

/** The notice a redirect of a console action carries (by its token), for the staff session `sessionId`. */
export async function noticeOf(answer: ActionAnswer, sessionId: string): Promise<ConsoleNotice | null> {
  if (answer.kind !== "redirect") return null;
  const url = new URL(answer.location, CONSOLE_ORIGIN);
  return consoleNotice({ sessionId, token: url.searchParams.get("notice") ?? undefined, now: now() });
}

/**
 * Any console action's answer to any post: a redirect to a page below `pathPrefix` on this origin
 * (never elsewhere), 404 or 403; a redirect's notice matches none of `leak`.
 */
export async function expectConsoleAnswer(answer: ActionAnswer, o: { sessionId: string; pathPrefix: string; leak: readonly RegExp[] }): Promise<void> {
  expect(["redirect", "not_found", "forbidden"]).toContain(answer.kind);
  if (answer.kind !== "redirect") return;
  const url = new URL(answer.location, CONSOLE_ORIGIN);
  expect(url.origin).toBe(CONSOLE_ORIGIN);
  expect(url.pathname.startsWith(o.pathPrefix)).toBe(true);
  const notice = await noticeOf(answer, o.sessionId);
  for (const pattern of o.leak) expect(notice?.text ?? "").not.toMatch(pattern);
}
