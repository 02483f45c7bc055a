// The one URL policy of the storefront: every URL that comes from stored content passes here before
// it reaches an HTML attribute, a markdown link, frontmatter or JSON-LD.

const SAFE_SCHEMES = ["http", "https", "mailto"];
const WEB_SCHEMES = ["http:", "https:"];

export interface SafeHrefOptions {
  /**
   * Only an absolute http(s) URL (an event's online URL, an image shown to other sites): relative
   * references and mailto are refused too. The result is the URL's normalized form (percent-encoded
   * spaces, quotes and angle brackets), so it is inert in any attribute or markdown destination.
   */
  absolute?: boolean;
}

/**
 * A link target from stored content that is safe to render: http(s), mailto, or a relative
 * reference (path, query, fragment). Anything else (javascript:, data:, vbscript:, a
 * protocol-relative //host, …) is null.
 */
export function safeHref(href: string | undefined | null, options: SafeHrefOptions = {}): string | null {
  if (!href) return null;
  const value = href.trim();
  // Browsers ignore tabs/newlines inside schemes ("java\tscript:"); strip before checking.
  const compact = value.replace(/[\u0000-\u0020]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (options.absolute) {
    // A stored URL with whitespace or control characters inside is malformed, not something to repair.
    if (!scheme || /[\u0000-\u0020\u007f]/.test(value)) return null;
    try {
      const url = new URL(value);
      return WEB_SCHEMES.includes(url.protocol) && url.hostname ? url.href : null;
    } catch {
      return null;
    }
  }
  if (!value) return null;
  // Backslashes become slashes in browsers ("/\evil.test" is protocol-relative).
  if (!scheme) return /^[\\/]{2}/.test(compact) ? null : value;
  return SAFE_SCHEMES.includes(scheme[1]!.toLowerCase()) ? value : null;
}

/**
 * An absolute http(s) URL for stored content that may be relative (a course image "/img/a.png"):
 * resolved against the school's origin, so Open Graph, Twitter cards and JSON-LD get a full URL.
 */
export function safeAbsoluteUrl(href: string | undefined | null, origin: string): string | null {
  const safe = safeHref(href);
  if (!safe || /^mailto:/i.test(safe)) return null;
  try {
    return safeHref(new URL(safe, origin + "/").href, { absolute: true });
  } catch {
    return null;
  }
}
