import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { csrfTokenFromCookies } from "@/lib/auth/csrf";
import { getMemberSession } from "@/lib/auth/session";
import { authSecret } from "@/lib/auth/auth-secret";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign out", robots: { index: false } };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function SignOutPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const raw = params.callbackUrl;
  const callbackUrl = safeCallbackPath(Array.isArray(raw) ? raw[0] : raw);
  const requestHeaders = await headers();
  const session = await getMemberSession({ headers: requestHeaders });
  const csrfToken = csrfTokenFromCookies(requestHeaders.get("cookie"), authSecret());
  if (!session) {
    return (
      <section className="card">
        <h1>Signed out</h1>
        <p>You are not signed in.</p>
        <a className="button secondary" href={callbackUrl}>
          Continue
        </a>
      </section>
    );
  }
  if (!csrfToken) redirect(`/api/auth/login?callbackUrl=${encodeURIComponent("/login/signout")}`);
  return (
    <section className="card">
      <h1>Sign out</h1>
      <p>
        Signed in as <strong>{session.email}</strong>.
      </p>
      <form className="stack" method="post" action="/api/auth/signout">
        <input type="hidden" name="csrfToken" value={csrfToken} />
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <button className="button" type="submit">
          Sign out
        </button>
      </form>
    </section>
  );
}
