import { createHash } from "node:crypto";
import { safeEqual } from "../credentials/secret";
import { CSRF_COOKIE, SECURE_CSRF_COOKIE, parseCookies } from "./cookies";

/**
 * The CSRF token of Auth.js's double-submit cookie (`token|sha256(token + secret)`), when the
 * request carries a genuine one. Forms put the token in a hidden field; Auth.js checks it on POST.
 */
export function csrfTokenFromCookies(cookieHeader: string | null, secret: string): string | null {
  const cookies = parseCookies(cookieHeader);
  const value = cookies.get(SECURE_CSRF_COOKIE) ?? cookies.get(CSRF_COOKIE);
  if (!value) return null;
  const [token, hash] = value.split("|");
  if (!token || !hash) return null;
  const expected = createHash("sha256").update(`${token}${secret}`).digest("hex");
  return safeEqual(hash, expected) ? token : null;
}
