import type { Metadata } from "next";
import { checkEmailVerificationToken, EmailVerificationError } from "@/lib/auth/email-verification";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirm your email", robots: { index: false } };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

// Opening the link only shows this button: mail scanners fetch links, and a fetch verifies nothing.
export default async function VerifyEmailPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  if (one(params.done)) {
    return (
      <section className="card">
        <h1>Email confirmed</h1>
        <p role="status">Thank you: your email address is confirmed.</p>
        <a href="/login">Sign in</a>
      </section>
    );
  }
  const token = one(params.token) ?? "";
  let email: string;
  try {
    ({ email } = await checkEmailVerificationToken({ db: db(), token, now: now() }));
  } catch (err) {
    if (!(err instanceof EmailVerificationError)) throw err;
    return (
      <section className="card">
        <h1>Confirm your email</h1>
        <p className="error" role="alert">
          {err.message}
        </p>
        <a href="/login">Sign in</a>
      </section>
    );
  }
  return (
    <section className="card">
      <h1>Confirm your email</h1>
      {/* A long address wraps rather than widening the page past 320 px. */}
      <p style={{ overflowWrap: "anywhere" }}>
        Confirm that <strong>{email}</strong> is your email address.
      </p>
      <form className="stack" method="post" action="/api/account/verify-email">
        <input type="hidden" name="token" value={token} />
        <button className="button" type="submit">
          Confirm my email
        </button>
      </form>
    </section>
  );
}
