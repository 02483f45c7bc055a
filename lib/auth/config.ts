import type { AuthConfig } from "@auth/core";
import { CredentialsSignin } from "@auth/core/errors";
import Credentials from "@auth/core/providers/credentials";
import { asDatabaseUnavailable } from "../db/unavailable";
import { authSecret } from "./auth-secret";
import { safeCallbackFromUrl } from "./callback-url";
import { authenticateMember } from "./login";
import { isMembershipDisabled } from "./membership-disabled";
import { now } from "../clock";
import { endMemberSession } from "../oidc/end-member-session";
import { createMemberSession, SESSION_LIFETIME_SECONDS } from "./member-sessions";

export const AUTH_BASE_PATH = "/api/auth";
export const LOGIN_PATH = "/login";

/** A sign-in that could not be checked because the database is unavailable (not a wrong password). */
export class DatabaseUnavailableSignin extends CredentialsSignin {
  override code = "temporarily_unavailable";
}

/** Too many failed attempts for this account or address: the login page says so (code=throttled). */
class ThrottledSignin extends CredentialsSignin {
  override code = "throttled";
}

/** Where the request came from, computed once by the handler (lib/tenancy/request-context.ts). */
export interface AuthRequestInfo {
  origin: string;
  address: string | null;
  /** The browser's User-Agent, kept on the session as the account page's device hint. */
  userAgent: string | null;
  /** The school of the host (null on a host without one): a member disabled there cannot sign in. */
  schoolId?: () => Promise<string | null>;
}

/**
 * Auth.js configuration: email + password members. The JWT cookie only carries the id of a
 * server-side session (lib/auth/member-sessions.ts) created at sign-in for this origin and
 * revoked at sign-out.
 */
export function authConfig(info: AuthRequestInfo): AuthConfig {
  return {
    basePath: AUTH_BASE_PATH,
    secret: authSecret(),
    // Every school's host is ours; the handler rebuilds the URL from the request context.
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_LIFETIME_SECONDS },
    pages: { signIn: LOGIN_PATH, error: LOGIN_PATH, signOut: `${LOGIN_PATH}/signout` },
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: async (credentials) => {
          try {
            const result = await authenticateMember({ credentials, address: info.address });
            if (!result.ok) {
              if (result.reason === "throttled") throw new ThrottledSignin();
              return null;
            }
            const schoolId = await info.schoolId?.();
            if (schoolId && (await isMembershipDisabled({ schoolId, userId: result.member.id }))) return null;
            const sid = await createMemberSession({ userId: result.member.id, origin: info.origin, userAgent: info.userAgent });
            return { ...result.member, sid };
          } catch (err) {
            // Auth.js turns any other throw into a generic error; this one the handler answers 503.
            if (asDatabaseUnavailable(err)) throw new DatabaseUnavailableSignin();
            throw err;
          }
        },
      }),
    ],
    callbacks: {
      redirect: ({ url, baseUrl }) => `${baseUrl}${safeCallbackFromUrl(url, new URL(baseUrl).origin)}`,
      jwt: ({ token, user }) => {
        if (user) {
          token.sub = user.id;
          token.email = user.email;
          token.name = user.name;
          token.sid = (user as { sid?: string }).sid;
        }
        return token;
      },
    },
    events: {
      signOut: async (message) => {
        const sid = "token" in message ? message.token?.sid : undefined;
        // Ends the session and, in the same transaction, queues Back-Channel Logout to the apps it signed in to.
        if (typeof sid === "string") await endMemberSession({ sessionId: sid, reason: "sign_out", now: now(), audit: null });
      },
    },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
}
