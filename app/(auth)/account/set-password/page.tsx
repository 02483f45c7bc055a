import type { Metadata } from "next";
import { checkPasswordSetupToken, MIN_PASSWORD_LENGTH, PasswordSetupError } from "@/lib/auth/password-setup";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose your password", robots: { index: false } };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const FORM_ERRORS: Record<string, string> = {
  weak_password: `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`,
  mismatch: "The two passwords did not match.",
};

export default async function SetPasswordPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const token = one(params.token) ?? "";
  let email: string;
  try {
    ({ email } = await checkPasswordSetupToken({ db: db(), token, now: now() }));
  } catch (err) {
    if (!(err instanceof PasswordSetupError)) throw err;
    return (
      <section className="card">
        <h1>Choose your password</h1>
        <p className="error" role="alert">
          {err.message}
        </p>
        {err.reason === "used_link" ? <a href="/login">Sign in</a> : null}
      </section>
    );
  }
  const code = one(params.error) ?? "";
  const error = Object.hasOwn(FORM_ERRORS, code) ? FORM_ERRORS[code] : undefined;
  return (
    <section className="card">
      <h1>Choose your password</h1>
      <p style={{ overflowWrap: "anywhere" }}>
        Set the password for <strong>{email}</strong>. This link works once.
      </p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <form className="stack" method="post" action="/api/account/set-password">
        <input type="hidden" name="token" value={token} />
        <input type="email" name="email" value={email} autoComplete="username" readOnly hidden />
        <label>
          New password
          <input type="password" name="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
        </label>
        <label>
          Repeat the password
          <input type="password" name="confirm" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
        </label>
        <button className="button" type="submit">
          Set password
        </button>
      </form>
    </section>
  );
}
