import type { AuthConfig } from "@auth/core";
import { CredentialsSignin } from "@auth/core/errors";
import Credentials from "@auth/core/providers/credentials";
import { asDatabaseUnavailable } from "../db/unavailable";
import { env } from "../env";
import { safeCallbackFromUrl } from "./callback-url";
import { authenticateMember } from "./login";
import { SESSION_MAX_AGE_SECONDS } from "./session";

export const AUTH_BASE_PATH = "/api/auth";
export const LOGIN_PATH = "/login";

/** A sign-in that could not be checked because the database is unavailable (not a wrong password). */
export class DatabaseUnavailableSignin extends CredentialsSignin {
  override code = "temporarily_unavailable";
}

/** Auth.js configuration: email + password members, JWT sessions signed with AUTH_SECRET. */
export function authConfig(): AuthConfig {
  return {
    basePath: AUTH_BASE_PATH,
    secret: env().AUTH_SECRET,
    // Every school's host is ours; the handler rebuilds the URL from trusted headers only.
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: LOGIN_PATH, error: LOGIN_PATH, signOut: `${LOGIN_PATH}/signout` },
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: async (credentials) => {
          let member;
          try {
            member = await authenticateMember({ credentials });
          } catch (err) {
            // Auth.js turns any other throw into a generic error; this one the handler answers 503.
            if (asDatabaseUnavailable(err)) throw new DatabaseUnavailableSignin();
            throw err;
          }
          return member ? { id: member.id, email: member.email, name: member.name } : null;
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
        }
        return token;
      },
    },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
}
