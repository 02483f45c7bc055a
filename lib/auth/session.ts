import { decode } from "@auth/core/jwt";
import { now } from "../clock";
import { authSecret } from "./auth-secret";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, parseCookies, readChunkedCookie } from "./cookies";

export interface MemberSession {
  userId: string;
  email: string;
  name: string;
}

/** Session lifetime: a signed-in member stays signed in for a week of inactivity at most. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/**
 * The signed-in member, from the Auth.js session cookie in the request's headers only (no
 * next/headers), so proxy.ts, route handlers and pages can all call it. Never reads an
 * Authorization header: OAuth bearer tokens are not member sessions.
 */
export async function getMemberSession(request: Request | { headers: Headers }): Promise<MemberSession | null> {
  const cookies = parseCookies(request.headers.get("cookie"));
  for (const name of [SECURE_SESSION_COOKIE, SESSION_COOKIE]) {
    const token = readChunkedCookie(cookies, name);
    if (!token) continue;
    const session = await decodeSession(token, name);
    if (session) return session;
  }
  return null;
}

async function decodeSession(token: string, salt: string): Promise<MemberSession | null> {
  try {
    const payload = await decode({ token, secret: authSecret(), salt });
    if (!payload) return null;
    const { sub, email, name, exp } = payload as { sub?: unknown; email?: unknown; name?: unknown; exp?: unknown };
    if (typeof sub !== "string" || typeof email !== "string") return null;
    if (typeof exp === "number" && exp * 1000 <= now().getTime()) return null;
    return { userId: sub, email, name: typeof name === "string" ? name : "" };
  } catch {
    return null;
  }
}
