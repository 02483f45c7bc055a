// The enterprise-training gate: on a school with enterpriseTraining, the HTML pages (and their
// markdown reached by negotiation) are for signed-in members only. /api/md/*, /llms.txt,
// /llms-full.txt and /openapi.json are not gated (the spec keeps them readable without a session).
import type { School } from "../db/generated/client";
import { db } from "../db/client";
import type { MemberSession } from "../auth/session";
import { errorMarkdown } from "./error-document";

export type { MemberSession };

export type Access =
  | { kind: "open" }
  | { kind: "member"; session: MemberSession }
  | { kind: "anonymous" }
  | { kind: "not_member"; session: MemberSession };

export interface AccessOptions {
  school: Pick<School, "id" | "enterpriseTraining">;
  /** Reads the request's member session (lib/auth/session). Only called on gated schools. */
  session: () => Promise<MemberSession | null>;
  isMember?: (o: { schoolId: string; userId: string }) => Promise<boolean>;
}

export async function isSchoolMember({ schoolId, userId }: { schoolId: string; userId: string }): Promise<boolean> {
  const row = await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId, userId } }, select: { id: true } });
  return row !== null;
}

export async function storefrontAccess(o: AccessOptions): Promise<Access> {
  if (!o.school.enterpriseTraining) return { kind: "open" };
  const session = await o.session();
  if (!session) return { kind: "anonymous" };
  const member = await (o.isMember ?? isSchoolMember)({ schoolId: o.school.id, userId: session.userId });
  return member ? { kind: "member", session } : { kind: "not_member", session };
}

/** Login URL with the page to come back to; the callback is always a same-origin relative path. */
export function loginPath(pathWithSearch: string): string {
  const callback = pathWithSearch.startsWith("/") && !pathWithSearch.startsWith("//") ? pathWithSearch : "/";
  return `/login?callbackUrl=${encodeURIComponent(callback)}`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export interface ForbiddenPage {
  schoolName: string;
  email: string;
  loginPath: string;
  /** scheme://host[:port] of the request: the markdown form's links are absolute. */
  origin: string;
}

/** 403 body for a signed-in user who is not a member of this enterprise-training school. */
export function forbiddenHtml(o: ForbiddenPage): string {
  const school = escapeHtml(o.schoolName);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Members only · ${school}</title>
<style>body{font-family:ui-sans-serif,system-ui,sans-serif;color:#1c1d21;background:#fbfaf7;margin:0;line-height:1.55}.wrap{max-width:640px;margin:0 auto;padding:2rem 1.25rem}a{color:#2f5bd3}</style>
</head><body><main class="wrap">
<h1>Members only</h1>
<p>${school} is a private training site. You are signed in as <strong>${escapeHtml(o.email)}</strong>, which is not a member of it.</p>
<p><a href="${escapeHtml(o.loginPath)}">Sign in with another account</a>, or ask your administrator for access.</p>
</main></body></html>
`;
}

/** The same 403 in markdown, in the one error-document shape (lib/storefront/error-document.ts). */
export function forbiddenMarkdown(o: ForbiddenPage): string {
  return errorMarkdown({
    origin: o.origin,
    status: 403,
    message: `${o.schoolName} is a private training site and the signed-in account is not a member of it.`,
    action: { label: "Sign in with another account", path: o.loginPath },
  });
}
