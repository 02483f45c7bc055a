// Who may use the staff console on this host, and for what: a signed-in member of the host's school
// whose membership is not disabled and whose roles grant console permissions (./permissions.ts).
// Every page and action asks here on the server; proxy.ts asks first so that a visitor meets the
// login page and anyone else a real 403 before a page renders.
import { getMemberSession, type MemberSession } from "../auth/session";
import { db } from "../db/client";
import type { School } from "../db/generated/client";
import { requestContext } from "../tenancy/request-context";
import { CONSOLE_PATH, permissionForPath } from "./nav";
import { isConsoleStaff, permissionsOf, type ConsolePermission } from "./permissions";
import { isSameOriginPost } from "../http/same-origin";
import { CROSS_SITE_MESSAGE, withoutNullOrigin } from "./same-origin";

export interface ConsoleStaff {
  school: School;
  session: MemberSession;
  origin: string;
  roles: string[];
  permissions: Set<ConsolePermission>;
  /** When the member last entered their password on this session (sign-in or step-up). */
  authenticatedAt: Date;
}

export type ConsoleAccess =
  | { kind: "no_school" }
  | { kind: "anonymous"; school: School }
  | { kind: "forbidden"; school: School; session: MemberSession }
  | ({ kind: "staff" } & ConsoleStaff);

export async function consoleAccess(request: { url?: string; headers: Headers }): Promise<ConsoleAccess> {
  const context = requestContext(request);
  const school = await context.school();
  if (!school) return { kind: "no_school" };
  const session = await getMemberSession(request);
  if (!session) return { kind: "anonymous", school };
  const [membership, row] = await Promise.all([
    db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: school.id, userId: session.userId } }, select: { roles: true, disabledAt: true } }),
    db().memberSession.findUnique({ where: { id: session.sessionId }, select: { authenticatedAt: true } }),
  ]);
  // A disabled member is refused like any non-staff account: nothing of the console is theirs.
  if (!membership || membership.disabledAt || !isConsoleStaff(membership.roles)) return { kind: "forbidden", school, session };
  return {
    kind: "staff",
    school,
    session,
    origin: context.origin,
    roles: membership.roles,
    permissions: permissionsOf(membership.roles),
    authenticatedAt: row?.authenticatedAt ?? session.signedInAt,
  };
}

/** The login page, coming back to `path` (same-origin relative only). */
export function consoleLoginPath(path: string): string {
  const callback = path.startsWith("/") && !path.startsWith("//") ? path : CONSOLE_PATH;
  return `/login?callbackUrl=${encodeURIComponent(callback)}`;
}

/**
 * Whether staff may open a console path: its nav entry's permission. The console's home is open to
 * every staff role (it sends each to the first page of theirs); an unknown path is left to the
 * page router's 404.
 */
export function mayOpen(staff: Pick<ConsoleStaff, "permissions">, pathname: string): boolean {
  const permission = permissionForPath(pathname);
  if (pathname === CONSOLE_PATH || pathname === `${CONSOLE_PATH}/`) return true;
  return permission === null || staff.permissions.has(permission);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** 403: says who is signed in, that this part of the console is not theirs, and how out. */
export function consoleForbiddenResponse(o: { schoolName: string; email: string; path: string }): Response {
  const school = escapeHtml(o.schoolName);
  const body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Not allowed · ${school}</title>
<style>body{font-family:ui-sans-serif,system-ui,sans-serif;color:#1c1d21;background:#fbfaf7;margin:0;line-height:1.55}.wrap{max-width:640px;margin:0 auto;padding:2rem 1.25rem}a{color:#2f5bd3}</style>
</head><body><main class="wrap">
<h1>This page is not open to you</h1>
<p>You are signed in as <strong>${escapeHtml(o.email)}</strong>. Your role at ${school} does not include this part of the staff console. Nothing was changed.</p>
<p><a href="${escapeHtml(consoleLoginPath(o.path))}">Sign in with another account</a> or <a href="/">go to ${school}</a>.</p>
</main></body></html>
`;
  return new Response(body, {
    status: 403,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-store", vary: "Cookie", "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" },
  });
}

/** 403 for a post from another site (or one that does not say where it comes from): nothing was done. */
export function consoleCrossSiteResponse(): Response {
  const body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Form refused</title>
<style>body{font-family:ui-sans-serif,system-ui,sans-serif;color:#1c1d21;background:#fbfaf7;margin:0;line-height:1.55}.wrap{max-width:640px;margin:0 auto;padding:2rem 1.25rem}a{color:#2f5bd3}</style>
</head><body><main class="wrap">
<h1>Form refused</h1>
<p>${escapeHtml(CROSS_SITE_MESSAGE)}</p>
<p><a href="${CONSOLE_PATH}">Open the staff console</a> and use its forms there.</p>
</main></body></html>
`;
  return new Response(body, {
    status: 403,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" },
  });
}

const isPost = (method: string | undefined) => method !== undefined && method !== "GET" && method !== "HEAD";

/**
 * The proxy's answer for a console request before it renders or acts (pages and their server
 * actions, which post to the page's path): 403 for a post from another site (before any lookup, and
 * before Next's own action check, which would answer it with a 500), the login page for a visitor,
 * 403 for an account that may not open the path, nothing (go on) for staff who may, and for a host
 * without a school (the page answers 404 there).
 */
export async function consolePageGate(request: { url: string; method?: string; headers: Headers }, pathname: string, pathWithSearch: string): Promise<Response | null> {
  if (isPost(request.method) && !isSameOriginPost(request.headers, requestContext(request).origin)) return consoleCrossSiteResponse();
  const access = await consoleAccess(request);
  if (access.kind === "no_school") return null;
  if (access.kind === "anonymous") {
    if (isPost(request.method)) {
      return new Response("Sign in again: nothing was changed.", { status: 401, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
    }
    const location = new URL(consoleLoginPath(pathWithSearch), requestContext(request).origin).toString();
    return new Response(null, { status: 307, headers: { location, "cache-control": "private, no-store" } });
  }
  if (access.kind === "forbidden" || !mayOpen(access, pathname)) {
    return consoleForbiddenResponse({ schoolName: access.school.name, email: access.session.email, path: pathWithSearch });
  }
  return null;
}

/**
 * The request headers to pass on for a console request the gate let through, when they must change:
 * a same-origin post sent with `Origin: null` goes on without it (./same-origin.ts, withoutNullOrigin),
 * so Next's action check does not refuse what the console's rule accepts. Null: pass it on as it came.
 */
export function consolePassedHeaders(request: { url: string; method?: string; headers: Headers }): Headers | null {
  return isPost(request.method) ? withoutNullOrigin(request.headers, requestContext(request).origin) : null;
}
