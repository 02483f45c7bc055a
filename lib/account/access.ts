// Who may use /account on this host: a signed-in member of the school whose host it is, for their
// own data only. Staff roles change nothing here: every query below is keyed by the session's user
// and the host's school, never by an id from the request alone.
import { getMemberSession, type MemberSession } from "../auth/session";
import { VERIFY_EMAIL_PATH } from "../auth/email-verification";
import { PASSWORD_SETUP_PATH } from "../auth/password-setup";
import { db } from "../db/client";
import type { School } from "../db/generated/client";
import { requestContext } from "../tenancy/request-context";

export const ACCOUNT_PATH = "/account";

export type AccountAccess =
  | { kind: "no_school" }
  | { kind: "anonymous"; school: School }
  | { kind: "not_member"; school: School; session: MemberSession }
  | { kind: "member"; school: School; session: MemberSession; origin: string };

/**
 * The one place the account pages and forms learn the request's school, origin and member (the
 * request-context helpers; when those change, only this function does).
 */
export async function accountAccess(request: { url?: string; headers: Headers }): Promise<AccountAccess> {
  const school = await requestContext(request).school();
  if (!school) return { kind: "no_school" };
  const session = await getMemberSession(request);
  if (!session) return { kind: "anonymous", school };
  const membership = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: school.id, userId: session.userId } }, select: { id: true, disabledAt: true } });
  // A member staff disabled here (lib/console/disable-member.ts) has no account pages here either.
  if (!membership || membership.disabledAt) return { kind: "not_member", school, session };
  return { kind: "member", school, session, origin: requestContext(request).origin };
}

/** Pages under /account that a mailed link opens signed out: the set-password and verify-email links. */
const SIGNED_OUT_PAGES = [PASSWORD_SETUP_PATH, VERIFY_EMAIL_PATH];

/** Whether a path is one of the signed-in member's account pages (the gate's business). */
export function isAccountPagePath(pathname: string): boolean {
  if (SIGNED_OUT_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return false;
  return pathname === ACCOUNT_PATH || pathname.startsWith(`${ACCOUNT_PATH}/`);
}

/** The login page, coming back to `path` (same-origin relative only). */
export function accountLoginPath(path: string): string {
  const callback = path.startsWith("/") && !path.startsWith("//") ? path : ACCOUNT_PATH;
  return `/login?callbackUrl=${encodeURIComponent(callback)}`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** 403 for a signed-in account that is not a member of this school: says who is signed in and how out. */
export function accountForbiddenResponse(o: { schoolName: string; email: string; path: string }): Response {
  const school = escapeHtml(o.schoolName);
  const body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Not a member · ${school}</title>
<style>body{font-family:ui-sans-serif,system-ui,sans-serif;color:#1c1d21;background:#fbfaf7;margin:0;line-height:1.55}.wrap{max-width:640px;margin:0 auto;padding:2rem 1.25rem}a{color:#2f5bd3}</style>
</head><body><main class="wrap">
<h1>You are not a member of ${school}</h1>
<p>You are signed in as <strong>${escapeHtml(o.email)}</strong>, which has no account at ${school}, so there is no account page for it here.</p>
<p><a href="${escapeHtml(accountLoginPath(o.path))}">Sign in with another account</a> or <a href="/">go to ${school}</a>.</p>
</main></body></html>
`;
  return new Response(body, { status: 403, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-store", vary: "Cookie" } });
}

/**
 * A download's file (lib/account/download-file.ts): whoever has no access to it gets its 404, a
 * signed-in account of another school included, so no answer tells a download or a file exists.
 */
const isDownloadFilePath = (pathname: string) => pathname.startsWith(`${ACCOUNT_PATH}/downloads/`);

/**
 * The proxy's answer for an account page before it renders: the login page for a visitor, 403 for
 * an account that is not a member here (but a download's file answers its own 404), nothing
 * (render the page) for a member or a host without a school (the page answers 404 there).
 */
export async function accountPageGate(request: { url: string; headers: Headers }, pathWithSearch: string): Promise<Response | null> {
  const access = await accountAccess(request);
  if (access.kind === "anonymous") {
    const location = new URL(accountLoginPath(pathWithSearch), requestContext(request).origin).toString();
    return new Response(null, { status: 307, headers: { location, "cache-control": "private, no-store" } });
  }
  if (access.kind === "not_member" && !isDownloadFilePath(pathWithSearch.split("?")[0]!)) return accountForbiddenResponse({ schoolName: access.school.name, email: access.session.email, path: pathWithSearch });
  return null;
}
