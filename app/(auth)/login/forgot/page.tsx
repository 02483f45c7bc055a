import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { authSecret } from "@/lib/auth/auth-secret";
import { FORGOT_PASSWORD_PATH } from "@/lib/auth/password-reset";
import { csrfTokenFromCookies } from "@/lib/auth/csrf";
import { PASSWORD_RESET_TTL_HOURS } from "@/lib/mail/templates/password-reset";
import { validBrandColor } from "@/lib/storefront/brand";
import { requestContext } from "@/lib/tenancy/request-context";
import { AccountField, FormAlert, one, type Search } from "../../../(storefront)/account/_components/account";
import { SchoolBrand } from "../../school-brand";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Forgot password", robots: { index: false } };


const ERRORS: Record<string, string> = {
  csrf: "The form expired. Please try again.",
  invalid_email: "Enter the email address you sign in with.",
  throttled: "Too many requests for this email or from your network. Wait a while and try again.",
  no_school: "Open the sign-in page of your school to reset your password there.",
};

export default async function ForgotPasswordPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const requestHeaders = await headers();
  const csrfToken = csrfTokenFromCookies(requestHeaders.get("cookie"), authSecret());
  const code = one(params.error) ?? "";
  const error = Object.hasOwn(ERRORS, code) ? ERRORS[code] : undefined;
  if (!csrfToken && !one(params.cookie_check)) {
    // The cookie's round trip keeps the reason the form came back for.
    const back = error ? `${FORGOT_PASSWORD_PATH}?${new URLSearchParams({ error: code })}` : FORGOT_PASSWORD_PATH;
    redirect(`/api/auth/csrf-cookie?${new URLSearchParams({ callbackUrl: back })}`);
  }
  const found = await requestContext({ headers: requestHeaders }).school().catch(() => null);
  const school = found ? { name: found.name, brandColor: validBrandColor(found.brandColor) } : null;
  return (
    <section className="card">
      <SchoolBrand school={school}>
        <h1>Forgot your password?</h1>
        {one(params.sent) ? (
          <>
            <p role="status">
              If an account with that email belongs to {school?.name ?? "this school"}, we have sent it a link to choose a new password. The link works
              once, for {PASSWORD_RESET_TTL_HOURS} hour.
            </p>
            <p>
              <a href="/login">Back to sign in</a>
            </p>
          </>
        ) : !csrfToken ? (
          <p className="error" role="alert">
            Your browser did not keep our cookie. Allow cookies for this site and try again.
          </p>
        ) : (
          <>
            <p>Enter the email you sign in with. We will mail you a link to choose a new password.</p>
            <FormAlert>{error}</FormAlert>
            <form className="stack" method="post" action="/api/account/forgot-password">
              <input type="hidden" name="csrfToken" value={csrfToken} />
              <AccountField label="Email" type="email" name="email" autoComplete="username" required />
              <button className="button" type="submit">
                Send the link
              </button>
            </form>
            <p>
              <a href="/login">Back to sign in</a>
            </p>
          </>
        )}
      </SchoolBrand>
    </section>
  );
}
