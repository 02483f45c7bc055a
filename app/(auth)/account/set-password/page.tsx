import type { Metadata } from "next";
import { checkPasswordSetupToken, MIN_PASSWORD_LENGTH, PasswordSetupError } from "@/lib/auth/password-setup";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { AccountField, FormAlert, one, type Search } from "../../../(storefront)/account/_components/account";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose your password", robots: { index: false } };


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
        <FormAlert>{err.message}</FormAlert>
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
      <FormAlert>{error}</FormAlert>
      <form className="stack" method="post" action="/api/account/set-password">
        <input type="hidden" name="token" value={token} />
        <input type="email" name="email" value={email} autoComplete="username" readOnly hidden />
        <AccountField label="New password" type="password" name="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
        <AccountField label="Repeat the password" type="password" name="confirm" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
        <button className="button" type="submit">
          Set password
        </button>
      </form>
    </section>
  );
}
