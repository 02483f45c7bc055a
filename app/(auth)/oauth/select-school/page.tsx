import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AUTHORIZE_PARAMS, AUTHORIZE_PATH } from "@/lib/oauth/authorize";
import { authorizationForPage } from "@/lib/oauth/pages";
import { brandStyle } from "@/lib/storefront/brand";
import { requestContext } from "@/lib/tenancy/request-context";
import { toSearchParams, type Search } from "../search-params";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a school", robots: { index: false } };

export default async function SelectSchoolPage({ searchParams }: { searchParams: Search }) {
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
  if (state.request.school) redirect(`${AUTHORIZE_PATH}?${state.request.params.toString()}`);
  const { request, session, schools } = state;
  // The school whose storefront this host shows (the flow started there) is chosen already.
  const hostSchool = await requestContext({ headers: requestHeaders }).school().catch(() => null);
  const preselected = schools.find((s) => s.id === hostSchool?.id)?.id ?? schools[0]?.id;
  return (
    <section className="card">
      <h1>Choose a school</h1>
      <p>
        <strong>{request.client.name}</strong> wants to connect to one of your schools. Signed in as {session.email} (
        <a href={`/login/signout?callbackUrl=${encodeURIComponent(`${AUTHORIZE_PATH}?${params.toString()}`)}`}>not you?</a>).
      </p>
      {schools.length === 0 ? (
        <p className="error">You are not a member of any school this application can connect to.</p>
      ) : (
        <form className="stack" method="get" action={AUTHORIZE_PATH}>
          {AUTHORIZE_PARAMS.filter((n) => n !== "school_id" && request.params.has(n)).map((n) => (
            <input key={n} type="hidden" name={n} value={request.params.get(n)!} />
          ))}
          <fieldset className="stack">
            <legend>Your schools</legend>
            {schools.map((school) => (
              <label key={school.id} style={{ display: "flex", gap: "0.5rem", fontWeight: 400 }}>
                <input type="radio" name="school_id" value={school.id} required defaultChecked={school.id === preselected} />
                <span className="school-swatch" style={brandStyle(school.brandColor)} aria-hidden="true" />
                {school.name}
              </label>
            ))}
          </fieldset>
          <button className="button" type="submit">
            Continue
          </button>
        </form>
      )}
    </section>
  );
}
