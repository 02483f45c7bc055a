import { encode } from "@auth/core/jwt";
import { authSecret } from "./auth-secret";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "./cookies";
import { createMemberSession, SESSION_LIFETIME_SECONDS } from "./member-sessions";

/**
 * Signs a member in without a password form, as the login does (a server-side session bound to this
 * origin, and Auth.js's JWT cookie naming it), for a flow that proved who the browser is another
 * way: the checkout that created this account, returning to the browser that started it.
 * Returns the Set-Cookie header value.
 */
export async function issueSessionCookie(options: {
  user: { id: string; email: string; name: string };
  origin: string;
  userAgent: string | null;
  now: Date;
}): Promise<string> {
  const { user, origin, now } = options;
  const sid = await createMemberSession({ userId: user.id, origin, userAgent: options.userAgent, now });
  const secure = origin.startsWith("https://");
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const token = await encode({
    token: { sub: user.id, email: user.email, name: user.name, sid, iat: Math.floor(now.getTime() / 1000) },
    secret: authSecret(),
    salt: name,
    maxAge: SESSION_LIFETIME_SECONDS,
  });
  return `${name}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_LIFETIME_SECONDS}${secure ? "; Secure" : ""}`;
}
