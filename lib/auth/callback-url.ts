/**
 * A post-login destination: only a same-origin relative path is accepted, so a crafted link
 * cannot bounce a member to another site (no open redirect). Anything else becomes "/".
 */
export function safeCallbackPath(raw: string | null | undefined, fallback = "/"): string {
  if (!raw) return fallback;
  let value = raw.trim();
  // Auth.js sometimes hands back an absolute URL on our own origin; callers strip it first.
  if (!value.startsWith("/")) return fallback;
  // "//evil.com" and "/\evil.com" are protocol-relative in browsers.
  if (value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Control characters (tabs, newlines) are dropped by URL parsers and can rebuild "//".
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  try {
    const parsed = new URL(value, "http://callback.invalid");
    if (parsed.origin !== "http://callback.invalid") return fallback;
    value = parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return fallback;
  }
  return value;
}

/** Same, for a value that may be an absolute URL on `origin`. */
export function safeCallbackFromUrl(raw: string | null | undefined, origin: string, fallback = "/"): string {
  if (raw && /^https?:\/\//i.test(raw)) {
    try {
      const u = new URL(raw);
      if (u.origin !== origin) return fallback;
      return safeCallbackPath(u.pathname + u.search + u.hash, fallback);
    } catch {
      return fallback;
    }
  }
  return safeCallbackPath(raw, fallback);
}
