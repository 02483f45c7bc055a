import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import { authSecret } from "@/lib/auth/auth-secret";
import { csrfTokenFromCookies } from "@/lib/auth/csrf";
import { END_SESSION_CONFIRM_PATH, END_SESSION_PATH } from "@/lib/oidc/end-session-request";
import { endSessionForPage } from "@/lib/oidc/end-session-page";
import { toSearchParams, type Search } from "../search-params";
import { SchoolBrand } from "../../school-brand";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign out?", robots: { index: false } };

/** RP-Initiated Logout's confirmation (no id_token_hint, or one for another session): a plain form, no script. */
export default async function EndSessionPage({ searchParams }: { searchParams: Search }) {
  const params = toSearchParams(await searchParams);
  const requestHeaders = await headers();
  const state = await endSessionForPage(requestHeaders, params);
  if (state.kind === "error") {
    return (
      <section className="card">
        <SchoolBrand school={state.school}>
          <h1>{state.title}</h1>
          <p className="error">{state.message}</p>
        </SchoolBrand>
      </section>
    );
  }
  if (state.kind === "signed_out") {
    return (
      <section className="card">
        <SchoolBrand school={state.school}>
          <h1>You are signed out</h1>
          <p>You are no longer signed in to {state.school?.name ?? "Schoolhouse"} in this browser. You can close this window.</p>
          <Link className="button secondary" href="/">
            Go to {state.school?.name ?? "the home page"}
          </Link>
        </SchoolBrand>
      </section>
    );
  }
  const csrfToken = csrfTokenFromCookies(requestHeaders.get("cookie"), authSecret());
  if (!csrfToken) redirect(`/api/auth/csrf-cookie?callbackUrl=${encodeURIComponent(`${END_SESSION_CONFIRM_PATH}?${state.params.toString()}`)}`);
  return (
    <section className="card">
      <SchoolBrand school={state.school}>
        <h1>Sign out of {state.school?.name ?? "Schoolhouse"}?</h1>
        <p>
          {state.clientName ? (
            <>
              <strong>{state.clientName}</strong> asked to sign you out.
            </>
          ) : (
            <>An application asked to sign you out.</>
          )}{" "}
          Signed in as <strong>{state.session.email}</strong>.
        </p>
        <p>Signing out also signs you out of the other apps you signed in to with this account here.</p>
        <form className="stack" method="post" action={END_SESSION_PATH}>
          {[...state.params].map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <div style={{ display: "flex", gap: "0.75rem", flexWrap: "wrap" }}>
            <button className="button" type="submit" name="decision" value="logout">
              Sign out
            </button>
            <button className="button secondary" type="submit" name="decision" value="stay">
              Stay signed in
            </button>
          </div>
        </form>
      </SchoolBrand>
    </section>
  );
}
