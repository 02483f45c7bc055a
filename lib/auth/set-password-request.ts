import { now } from "../clock";
import { db } from "../db/client";
import { asDatabaseUnavailable } from "../db/unavailable";
import { unavailablePage } from "../oauth/html";
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
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_FORM_BYTES) return Response.json({ error: "payload_too_large" }, { status: 413 });
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
