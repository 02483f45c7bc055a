import { now } from "../clock";
import { db } from "../db/client";
import { asDatabaseUnavailable } from "../db/unavailable";
import { BodyEncodingError, BodyTooLargeError, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import { unavailablePage } from "../core/html-page";
import { completePasswordSetup, PASSWORD_SETUP_PATH, PasswordSetupError } from "./password-setup";
import { loginAfterSetup } from "./setup-confirmation";

const MAX_FORM_BYTES = 8 * 1024;

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });

/**
 * POST of the set-password form. Success goes to the login page; a problem goes back to the form
 * with a reason code (the page words it). The token is the only credential: it is 256 random bits,
 * so the form needs no CSRF token of its own.
 */
export async function handleSetPasswordPost(request: Request): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    return Response.json({ error: "unsupported_media_type" }, { status: 415 });
  }
  // Read while streaming, like every other body (lib/http/body.ts): request.text() buffered all of
  // it, however large, before the size was checked (issue 29, item 13).
  let text: string;
  try {
    text = await readBodyText(request, MAX_FORM_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return Response.json({ error: "payload_too_large" }, { status: 413, headers: REFUSED_BODY_HEADERS });
    if (err instanceof BodyEncodingError) return Response.json({ error: "bad_request" }, { status: 400 });
    throw err;
  }
  const form = new URLSearchParams(text);
  const token = form.get("token") ?? "";
  try {
    const { email } = await completePasswordSetup({
      db: db(),
      token,
      password: form.get("password"),
      confirm: form.get("confirm"),
      now: now(),
    });
    return seeOther(loginAfterSetup(email));
  } catch (err) {
    // Nothing was changed (one transaction); the link still works once the database is back.
    if (asDatabaseUnavailable(err)) return unavailablePage();
    if (!(err instanceof PasswordSetupError)) throw err;
    const back = new URLSearchParams({ token, error: err.reason });
    return seeOther(`${PASSWORD_SETUP_PATH}?${back}`);
  }
}
