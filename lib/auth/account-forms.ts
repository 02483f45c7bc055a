import { now } from "../clock";
import { unavailablePage } from "../core/html-page";
import { safeEqual } from "../credentials/secret";
import { db } from "../db/client";
import { asDatabaseUnavailable } from "../db/unavailable";
import { BodyEncodingError, BodyTooLargeError, hasNul, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import { clientAddress, requestContext } from "../tenancy/request-context";
import { authSecret } from "./auth-secret";
import { csrfTokenFromCookies } from "./csrf";
import { EmailVerificationError, VERIFY_EMAIL_PATH, verifyEmail } from "./email-verification";
import { FORGOT_PASSWORD_PATH, requestPasswordReset } from "./password-reset";

const MAX_FORM_BYTES = 8 * 1024;

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });

/** A small urlencoded form, or the response refusing it (415, 413, 400). */
async function readForm(request: Request): Promise<URLSearchParams | Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return Response.json({ error: "unsupported_media_type" }, { status: 415 });
  try {
    const form = new URLSearchParams(await readBodyText(request, MAX_FORM_BYTES));
    for (const [key, value] of form) if (hasNul(key) || hasNul(value)) return Response.json({ error: "bad_request" }, { status: 400 });
    return form;
  } catch (err) {
    if (err instanceof BodyTooLargeError) return Response.json({ error: "payload_too_large" }, { status: 413, headers: REFUSED_BODY_HEADERS });
    if (err instanceof BodyEncodingError) return Response.json({ error: "bad_request" }, { status: 400 });
    throw err;
  }
}

/**
 * POST of the "forgot password" form (CSRF-checked: Auth.js's double-submit cookie, as the sign-in
 * form). Every accepted request lands on the same "check your mail" answer.
 */
export async function handleForgotPasswordPost(request: Request): Promise<Response> {
  const form = await readForm(request);
  if (form instanceof Response) return form;
  const expected = csrfTokenFromCookies(request.headers.get("cookie"), authSecret());
  if (expected === null || !safeEqual(form.get("csrfToken") ?? "", expected)) return seeOther(`${FORGOT_PASSWORD_PATH}?error=csrf`);
  try {
    const school = await requestContext(request).school();
    if (!school) return seeOther(`${FORGOT_PASSWORD_PATH}?error=no_school`);
    const answer = await requestPasswordReset({ schoolId: school.id, email: form.get("email"), address: clientAddress(request), now: now() });
    if (answer.status === "accepted") return seeOther(`${FORGOT_PASSWORD_PATH}?sent=1`);
    return seeOther(`${FORGOT_PASSWORD_PATH}?error=${answer.status}`);
  } catch (err) {
    if (asDatabaseUnavailable(err)) return unavailablePage();
    throw err;
  }
}

/**
 * POST of the "confirm my email" button. The token is the only credential (256 random bits, from
 * the mail), so, like the set-password form, the form needs no CSRF token of its own.
 */
export async function handleVerifyEmailPost(request: Request): Promise<Response> {
  const form = await readForm(request);
  if (form instanceof Response) return form;
  const token = form.get("token") ?? "";
  try {
    await verifyEmail({ db: db(), token, now: now() });
    return seeOther(`${VERIFY_EMAIL_PATH}?done=1`);
  } catch (err) {
    if (asDatabaseUnavailable(err)) return unavailablePage();
    if (!(err instanceof EmailVerificationError)) throw err;
    return seeOther(`${VERIFY_EMAIL_PATH}?${new URLSearchParams({ token, error: err.reason })}`);
  }
}
