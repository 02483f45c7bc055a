const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

function parse(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

export function isLoopbackRedirect(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Whether a requested redirect URI matches a registered one: exact string match, except that
 * loopback http URIs match on any port (RFC 8252 §7.3: native apps bind an ephemeral port).
 */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = parse(registered);
  const b = parse(requested);
  if (!a || !b || !isLoopbackRedirect(a) || !isLoopbackRedirect(b)) return false;
  return a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search && !b.hash && !b.username && !b.password;
}

export function findRedirectUri(registered: string[], requested: string | null | undefined): string | null {
  if (!requested) return null;
  return registered.some((r) => redirectUriMatches(r, requested)) ? requested : null;
}

/** A redirect URI a self-described (CIMD) client may declare: https, or http on a loopback host; no fragment. */
export function isAcceptableRedirectUri(uri: string): boolean {
  const url = parse(uri);
  if (!url || url.hash || url.username || url.password) return false;
  return url.protocol === "https:" || isLoopbackRedirect(url);
}
