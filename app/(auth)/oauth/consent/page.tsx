import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { csrfTokenFromCookies } from "@/lib/auth/csrf";
import { authSecret } from "@/lib/auth/auth-secret";
import { AUTHORIZE_PARAMS, AUTHORIZE_PATH, CONSENT_PATH } from "@/lib/oauth/authorize";
import { authorizationForPage, describeScopes, redirectHost } from "@/lib/oauth/pages";
import { toSearchParams, type Search } from "../search-params";
import { SchoolBrand } from "../../school-brand";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Allow access?", robots: { index: false } };

export default async function ConsentPage({ searchParams }: { searchParams: Search }) {
  const params = toSearchParams(await searchParams);
  const requestHeaders = await headers();
  const state = await authorizationForPage(requestHeaders, params);
  if (state.kind === "redirect") redirect(state.location);
  if (state.kind === "error") {
    return (
      <section className="card">
        <h1>{state.title}</h1>
        <p className="error">{state.message}</p>
      </section>
    );
  }
  const { request, session } = state;
  const school = request.school;
  if (!school) redirect(`${AUTHORIZE_PATH}?${request.params.toString()}`);
  const csrfToken = csrfTokenFromCookies(requestHeaders.get("cookie"), authSecret());
  if (!csrfToken) {
    if (params.get("cookie_check")) {
      return (
        <section className="card">
          <h1>Cookies are needed</h1>
          <p className="error">Your browser did not keep our security cookie. Allow cookies for this site and try again.</p>
        </section>
      );
    }
    redirect(`/api/auth/csrf-cookie?callbackUrl=${encodeURIComponent(`${CONSENT_PATH}?${request.params.toString()}`)}`);
  }
  const host = redirectHost(request.redirectUri);
  const documentHost = request.client.isMetadataDocument ? new URL(request.client.clientId).host : null;
  return (
    <section className="card">
      <SchoolBrand school={school}>
        <h1>Allow {request.client.name} to access your account?</h1>
        {documentHost ? (
          // Anyone can publish a metadata document and pick any name: the host is the one fact about
          // the app that its publisher cannot fake, so it comes first (docs/decisions.md, issue 25).
          <p className="notice">
            This app is not registered with {school.name}. It is published by <strong className="client-host">{documentHost}</strong>:
            allow it only if you trust {documentHost}.
          </p>
        ) : null}
        <p>
          Signed in as <strong>{session.email}</strong>.
        </p>
        <p>
          After you decide, you will be sent to <strong>{host}</strong>.
          {request.client.isMetadataDocument ? (
            <>
              {" "}
              This application describes itself at <code>{request.client.clientId}</code>.
            </>
          ) : null}
        </p>
        <p>It will be able to:</p>
        <ul>
          {describeScopes(request.grantedScopes).map(({ scope, description }) => (
            <li key={scope}>
              {description} <span className="meta">({scope})</span>
            </li>
          ))}
        </ul>
        <form className="stack" method="post" action={AUTHORIZE_PATH}>
          {AUTHORIZE_PARAMS.filter((n) => request.params.has(n)).map((n) => (
            <input key={n} type="hidden" name={n} value={request.params.get(n)!} />
          ))}
          <input type="hidden" name="csrf_token" value={csrfToken} />
          {/* The answer is for this account only: a different signed-in account restarts the flow. */}
          <input type="hidden" name="account" value={session.userId} />
          <div style={{ display: "flex", gap: "0.75rem" }}>
            <button className="button" type="submit" name="decision" value="allow">
              Allow
            </button>
            <button className="button secondary" type="submit" name="decision" value="deny">
              Deny
            </button>
          </div>
        </form>
      </SchoolBrand>
    </section>
  );
}
