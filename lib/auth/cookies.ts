// Cookie names Auth.js uses. Browsers only store "__Secure-"/"__Host-" cookies from https
// origins, so finding the prefixed one is proof enough that the session was set over https.
export const SESSION_COOKIE = "authjs.session-token";
export const SECURE_SESSION_COOKIE = "__Secure-authjs.session-token";
export const CSRF_COOKIE = "authjs.csrf-token";
export const SECURE_CSRF_COOKIE = "__Host-authjs.csrf-token";

export function parseCookies(header: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    if (!name || out.has(name)) continue;
    try {
      out.set(name, decodeURIComponent(raw));
    } catch {
      out.set(name, raw);
    }
  }
  return out;
}

/** A cookie's value, reassembling Auth.js's chunked form (`name.0`, `name.1`, …) when it is split. */
export function readChunkedCookie(cookies: Map<string, string>, name: string): string | null {
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : null;
}
