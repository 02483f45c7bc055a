import { decode } from "@auth/core/jwt";
import { now } from "../clock";
import { requestContext } from "../tenancy/request-context";
import { authSecret } from "./auth-secret";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, parseCookies, readChunkedCookie } from "./cookies";
import { findLiveSession } from "./member-sessions";

export interface MemberSession {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
  /** When the member signed in on this session. */
  signedInAt: Date;
}

/**
 * The signed-in member, from the Auth.js session cookie in the request's headers only (no
 * next/headers), so proxy.ts, route handlers and pages can all call it. The cookie names a
 * server-side session, which must be unrevoked, unexpired and used on the origin it was created
 * on. Never reads an Authorization header: OAuth bearer tokens are not member sessions.
 */
export async function getMemberSession(request: { url?: string; headers: Headers }): Promise<MemberSession | null> {
  const cookies = parseCookies(request.headers.get("cookie"));
  for (const name of [SECURE_SESSION_COOKIE, SESSION_COOKIE]) {
    const token = readChunkedCookie(cookies, name);
    if (!token) continue;
    const sessionId = await decodeSessionId(token, name);
    if (!sessionId) continue;
    const live = await findLiveSession({ sessionId, origin: requestContext(request).origin, now: now() });
    if (live) return live;
  }
  return null;
}

/** Whether the request carries a session cookie at all (no lookup): most visitors have none. */
export function hasSessionCookie(headers: Headers): boolean {
  const cookies = parseCookies(headers.get("cookie"));
  return [SECURE_SESSION_COOKIE, SESSION_COOKIE].some((name) => cookies.has(name) || cookies.has(`${name}.0`));
}

async function decodeSessionId(token: string, salt: string): Promise<string | null> {
  try {
    const payload = await decode({ token, secret: authSecret(), salt });
    const { sid, exp } = (payload ?? {}) as { sid?: unknown; exp?: unknown };
    if (typeof sid !== "string") return null;
    if (typeof exp === "number" && exp * 1000 <= now().getTime()) return null;
    return sid;
  } catch {
    return null;
  }
}
