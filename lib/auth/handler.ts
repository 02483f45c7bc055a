import { Auth } from "@auth/core";
import { BodyEncodingError, BodyTooLargeError, formatBytes, hasNul, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import { htmlErrorPage, unavailablePage } from "../core/html-page";
import { clientAddress, requestContext } from "../tenancy/request-context";
import { safeCallbackPath } from "./callback-url";
import { AUTH_BASE_PATH, LOGIN_PATH, authConfig, type AuthRequestInfo } from "./config";
import { setupConfirmation } from "./setup-confirmation";

/**
 * Route handler for /api/auth/*: Auth.js, on the URL the member actually used (forwarded headers
 * only behind a trusted proxy, so secure cookies follow the real scheme), plus one helper action.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const { origin } = requestContext(request);
  const info = {
    origin,
    address: clientAddress(request),
    userAgent: request.headers.get("user-agent"),
    schoolId: () => requestContext(request).school().then((school) => school?.id ?? null),
  };
  const incoming = new URL(request.url);
  const url = new URL(incoming.pathname + incoming.search, origin);
  // Auth.js answers a callbackUrl it cannot parse as a URL with a 500 ("server configuration"):
  // only our own safe paths reach it (the same rule as everywhere else).
  if (url.searchParams.has("callbackUrl")) url.searchParams.set("callbackUrl", safeCallbackPath(url.searchParams.get("callbackUrl")));

  // GET /api/auth/login: set Auth.js's CSRF cookie, then show the login page. The page is a server
  // component and cannot set cookies itself.
  if (request.method === "GET" && url.pathname === `${AUTH_BASE_PATH}/login`) {
    return withCsrfCookie(request, url, "login", info);
  }
  // GET /api/auth/csrf-cookie: the same for other forms (consent), returning to callbackUrl.
  if (request.method === "GET" && url.pathname === `${AUTH_BASE_PATH}/csrf-cookie`) {
    return withCsrfCookie(request, url, "return", info);
  }

  let body: string | undefined;
  if (request.method === "POST") {
    const read = await readAuthBody(request);
    if (read instanceof Response) return read;
    body = read;
  }
  const forwarded = new Request(url, { method: request.method, headers: request.headers, body });
  const response = await Auth(forwarded, authConfig(info));
  if (signInUnavailable(response, url)) return unavailablePage();
  return keepCallbackOnError(response, body, url);
}

/** Auth.js redirects a DatabaseUnavailableSignin to the login page with its code: answer 503 instead. */
function signInUnavailable(response: Response, url: URL): boolean {
  const location = response.headers.get("location");
  if (!location) return false;
  const target = new URL(location, url);
  return target.pathname === LOGIN_PATH && target.searchParams.get("code") === "temporarily_unavailable";
}

/** Sign-in and sign-out forms are tiny: 16 KiB, read while streaming, UTF-8, no NUL (before any query). */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

async function readAuthBody(request: Request): Promise<string | Response> {
  try {
    const text = await readBodyText(request, MAX_AUTH_BODY_BYTES);
    for (const [key, value] of new URLSearchParams(text)) {
      if (hasNul(key) || hasNul(value)) return htmlErrorPage(400, "Invalid request", "The form must not contain the NUL character.");
    }
    return text;
  } catch (err) {
    if (err instanceof BodyTooLargeError) return htmlErrorPage(413, "Request too large", `The form is larger than ${formatBytes(MAX_AUTH_BODY_BYTES)}.`, { ...REFUSED_BODY_HEADERS });
    if (err instanceof BodyEncodingError) return htmlErrorPage(400, "Invalid request", err.message);
    throw err;
  }
}

async function withCsrfCookie(request: Request, url: URL, then: "login" | "return", info: AuthRequestInfo): Promise<Response> {
  const csrf = await Auth(new Request(new URL(`${AUTH_BASE_PATH}/csrf`, url), { headers: request.headers }), authConfig(info));
  const callbackUrl = safeCallbackPath(url.searchParams.get("callbackUrl"));
  const target = new URL(then === "login" ? LOGIN_PATH : callbackUrl, url);
  if (then === "login") {
    target.searchParams.set("callbackUrl", callbackUrl);
    // The confirmation of a just-set password survives the cookie round trip (issue 29, item 9).
    for (const [name, value] of setupConfirmation(url.searchParams)) target.searchParams.set(name, value);
  }
  target.searchParams.set("cookie_check", "1");
  const headers = new Headers({ location: target.pathname + target.search, "cache-control": "no-store" });
  for (const cookie of csrf.headers.getSetCookie()) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/** Auth.js sends failed logins to the login page without the destination; put it back. */
function keepCallbackOnError(response: Response, body: string | undefined, url: URL): Response {
  const location = response.headers.get("location");
  if (!location || body === undefined) return response;
  const target = new URL(location, url);
  if (target.origin !== url.origin || target.pathname !== LOGIN_PATH || !target.searchParams.has("error")) return response;
  const callbackUrl = safeCallbackPath(new URLSearchParams(body).get("callbackUrl"));
  target.searchParams.set("callbackUrl", callbackUrl);
  const headers = new Headers(response.headers);
  headers.set("location", target.pathname + target.search);
  return new Response(null, { status: 303, headers });
}
