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
