import Link from "next/link";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { setupConfirmation } from "@/lib/auth/setup-confirmation";
import { csrfTokenFromCookies } from "@/lib/auth/csrf";
import { getMemberSession } from "@/lib/auth/session";
import { authSecret } from "@/lib/auth/auth-secret";
import { AUTHORIZE_PATH } from "@/lib/oauth/authorize";
import { loginContext } from "@/lib/oauth/login-context";
import { callbackAsksForSignIn } from "@/lib/oauth/login-ticket";
import { SchoolBrand } from "../school-brand";

export const dynamic = "force-dynamic";

/** The title names the school the member signs in to, like the heading. */
export async function generateMetadata({ searchParams }: { searchParams: Search }): Promise<Metadata> {
  const callbackUrl = safeCallbackPath(one((await searchParams).callbackUrl));
  const { school } = await loginContext({ headers: await headers(), callbackUrl }).catch(() => ({ school: null }));
  return { title: school ? `Sign in · ${school.name}` : "Sign in", robots: { index: false } };
}

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const flat = (params: Record<string, string | string[] | undefined>) =>
  Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, one(v) ?? ""] as [string, string]]));

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "That email and password did not match.",
  // Progressive throttling (lib/auth/login-throttle.ts): a short wait, never a lockout.
  throttled: "Too many failed attempts for this email or from your network. Wait a little (at most a few minutes) and try again.",
  MissingCSRF: "Your sign-in form expired. Please try again.",
};

export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(one(params.callbackUrl));
  const requestHeaders = await headers();
  const csrfToken = csrfTokenFromCookies(requestHeaders.get("cookie"), authSecret());
  const session = await getMemberSession({ headers: requestHeaders });
  const setup = new Map(setupConfirmation(new URLSearchParams(flat(params))));

  if (!csrfToken) {
    if (one(params.cookie_check)) {
      return (
        <section className="card">
          <h1>Cookies are needed to sign in</h1>
          <p className="error">Your browser did not keep our sign-in cookie. Allow cookies for this site and try again.</p>
        </section>
      );
    }
    const detour = new URLSearchParams([["callbackUrl", callbackUrl], ...setup]);
    redirect(`/api/auth/login?${detour}`);
  }

  const error = one(params.code) === "throttled" ? "throttled" : one(params.error);
  const { school, clientName } = await loginContext({ headers: requestHeaders, callbackUrl });
  // A plain login belongs to the host's site, so "/" leads back to it; an authorization request's does not.
  const siteLink = new URL(callbackUrl, "http://callback.invalid").pathname !== AUTHORIZE_PATH;
  // prompt=login: the application asked for a new sign-in, so the current session cannot continue.
  const signInAgain = callbackAsksForSignIn(callbackUrl);
  return (
    <section className="card">
      <SchoolBrand school={school}>
        <h1>{school ? `Sign in to ${school.name}` : "Sign in"}</h1>
        {clientName ? (
          <p>
            <strong>{clientName}</strong> is asking to connect to your account.{" "}
            {signInAgain ? "It asks you to sign in again, even if you are signed in." : "Sign in to continue."}
          </p>
        ) : null}
        {setup.has("setup") ? <p role="status">Your password is set. Sign in with it below.</p> : null}
        {session && !signInAgain ? (
          <p>
            You are signed in as <strong>{session.email}</strong>. <a href={callbackUrl}>Continue</a>, or sign in as someone
            else below.
          </p>
        ) : null}
        {error ? (
          <p className="error" role="alert">
            {Object.hasOwn(MESSAGES, error) ? MESSAGES[error] : "Sign-in failed. Please try again."}
          </p>
        ) : null}
        <form className="stack" method="post" action="/api/auth/callback/credentials">
          <input type="hidden" name="csrfToken" value={csrfToken} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <label>
            Email
            <input type="email" name="email" autoComplete="username" defaultValue={setup.get("email")} required />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required />
          </label>
          <button className="button" type="submit">
            Sign in
          </button>
        </form>
        <p>
          <a href="/login/forgot">Forgot password?</a>
        </p>
        {school && siteLink ? (
          <p>
            <Link href="/">Back to {school.name}</Link>
          </p>
        ) : null}
      </SchoolBrand>
    </section>
  );
}
