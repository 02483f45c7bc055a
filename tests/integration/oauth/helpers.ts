import { createHash } from "node:crypto";
import { decode } from "@auth/core/jwt";
import { authSecret } from "@/lib/auth/auth-secret";
import { db } from "@/lib/db/client";
import type { AppServer } from "../../helpers/app-server";

/** Cookies from Set-Cookie headers, merged into a Cookie header value (later ones win, empty ones clear). */
export function mergeCookies(existing: string, response: Response): string {
  const jar = new Map<string, string>();
  for (const part of existing.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  for (const set of response.headers.getSetCookie()) {
    const [pair] = set.split(";");
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (value === "" || /max-age=0/i.test(set) || /expires=thu, 01 jan 1970/i.test(set)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

export async function csrf(app: AppServer, cookie = ""): Promise<{ token: string; cookie: string }> {
  const res = await app.fetch("/api/auth/csrf", { headers: cookie ? { cookie } : {} });
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { token: csrfToken, cookie: mergeCookies(cookie, res) };
}

export async function postLogin(
  app: AppServer,
  fields: { email: string; password: string; callbackUrl?: string },
  cookie = "",
): Promise<{ response: Response; cookie: string }> {
  const c = await csrf(app, cookie);
  const body = new URLSearchParams({ csrfToken: c.token, callbackUrl: fields.callbackUrl ?? "/", email: fields.email, password: fields.password });
  const response = await app.fetch("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie },
    body,
  });
  return { response, cookie: mergeCookies(c.cookie, response) };
}

/** Signs a member in through Auth.js and returns the Cookie header that carries the session. */
export async function signIn(app: AppServer, email: string, password = "schoolhouse-demo"): Promise<string> {
  const { response, cookie } = await postLogin(app, { email, password });
  if (!/authjs\.session-token=/.test(cookie)) throw new Error(`sign-in failed: ${response.status} ${response.headers.get("location")}`);
  return cookie;
}

export const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-verifier-for-tests";
export const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  const defaults = { response_type: "code", code_challenge: CHALLENGE, code_challenge_method: "S256", scope: "openid profile email", state: "st-123" };
  for (const [k, v] of Object.entries({ ...defaults, ...params })) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q}`;
}

/** The member a session cookie belongs to (what the consent page shows as "Signed in as"). */
export async function sessionUserId(_app: AppServer, cookie: string): Promise<string> {
  const token = /authjs\.session-token=([^;]+)/.exec(cookie)?.[1];
  if (!token) return "";
  const payload = await decode({ token, secret: authSecret(), salt: "authjs.session-token" });
  const sid = typeof payload?.sid === "string" ? payload.sid : null;
  const row = sid ? await db().memberSession.findUnique({ where: { id: sid } }) : null;
  return row?.userId ?? "";
}

/** Posts the consent form the way the consent page does (double-submit CSRF token, the account it showed). */
export async function postConsent(
  app: AppServer,
  cookie: string,
  consentLocation: string,
  decision: "allow" | "deny",
  shownAccount?: string,
): Promise<Response> {
  const c = await csrf(app, cookie);
  const params = new URL(consentLocation, "http://x").searchParams;
  params.set("decision", decision);
  params.set("csrf_token", c.token);
  params.set("account", shownAccount ?? (await sessionUserId(app, cookie)));
  return app.fetch("/oauth/authorize", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie },
    body: params,
  });
}

/** Runs authorize → consent (allow) for a signed-in member and returns the code from the redirect. */
export async function getCode(
  app: AppServer,
  cookie: string,
  params: Record<string, string | undefined>,
): Promise<{ code: string; location: URL }> {
  const first = await app.fetch(authorizeUrl(params), { headers: { cookie } });
  if (first.status !== 303) throw new Error(`authorize answered ${first.status}: ${await first.text()}`);
  let location = first.headers.get("location")!;
  if (location.startsWith("/oauth/consent")) {
    const res = await postConsent(app, cookie, location, "allow");
    location = res.headers.get("location")!;
  }
  const url = new URL(location);
  const code = url.searchParams.get("code");
  if (!code) throw new Error(`no code in ${location}`);
  return { code, location: url };
}

export function form(values: Record<string, string | undefined>): RequestInit {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) body.set(k, v);
  return { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body };
}

/** Redeems a code of demo-public-app; `headers` add to the form's (e.g. another Host). */
export async function exchangeCode(
  app: AppServer,
  code: string,
  extra: Record<string, string | undefined> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const init = form({ grant_type: "authorization_code", code, redirect_uri: "http://localhost:3000/oauth/callback", client_id: "demo-public-app", code_verifier: VERIFIER, ...extra });
  return app.fetch("/api/oauth/token", { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
}

export interface TokenBody {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  created_at: number;
  school_id: string;
  school_subdomain: string;
}

/** A member's tokens for demo-public-app at the demo school. */
export async function tokensFor(app: AppServer, cookie: string, params: Record<string, string | undefined> = {}): Promise<TokenBody> {
  const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback", ...params });
  const res = await exchangeCode(app, code, params.redirect_uri ? { redirect_uri: params.redirect_uri } : {});
  if (res.status !== 200) throw new Error(`token exchange: ${res.status} ${await res.text()}`);
  return (await res.json()) as TokenBody;
}

/**
 * What a browser does between a client's authorization URL and its redirect URI for a signed-in
 * member: the school picker (answered with `schoolId`), consent (allowed); returns the redirect.
 */
export async function browseAuthorization(app: AppServer, cookie: string, authorizationUrl: URL | string, schoolId: string): Promise<URL> {
  let location = String(authorizationUrl);
  for (let i = 0; i < 5; i++) {
    const url = new URL(location, app.url);
    if (url.pathname === "/oauth/select-school") {
      url.pathname = "/oauth/authorize";
      url.searchParams.set("school_id", schoolId);
    }
    if (url.pathname === "/oauth/consent") {
      const res = await postConsent(app, cookie, url.pathname + url.search, "allow");
      return new URL(res.headers.get("location")!, app.url);
    }
    if (url.origin !== app.url) return url;
    const res = await app.fetch(url.pathname + url.search, { headers: { cookie } });
    if (res.status !== 303) throw new Error(`authorize answered ${res.status}`);
    location = res.headers.get("location")!;
  }
  throw new Error("too many redirects");
}
