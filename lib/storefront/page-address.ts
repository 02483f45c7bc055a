// A storefront page named by URL (its HTML page or its /api/md twin) or by kind and slug, checked
// the way the routes check it. Used by MCP's get_page and its markdown resources.
import { hasSlug, isValidSlug, matchPage, routeOf, type DocumentKind } from "./routes";

export type PageAddress = { kind: DocumentKind; slug?: string };

const MARKDOWN_PREFIX = "/api/md";

/** The page a URL on `origin` addresses, or the reason it addresses none. */
export function pageOfUrl(raw: string, origin: string): PageAddress | { error: string } {
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return { error: "url is not a valid URL" };
  }
  if (url.origin !== origin) return { error: `url must be a page of this school's site (${origin})` };
  let path = url.pathname;
  if (path === MARKDOWN_PREFIX + "/home") path = "/";
  else if (path.startsWith(MARKDOWN_PREFIX + "/")) path = path.slice(MARKDOWN_PREFIX.length);
  const match = matchPage(path);
  if (!match) return { error: `${url.pathname} is not a storefront page` };
  if (match.slug === undefined) return { kind: match.route.kind };
  let slug: string;
  try {
    slug = decodeURIComponent(match.slug);
  } catch {
    return { error: "Malformed slug: slugs are lower-case letters and digits separated by single hyphens." };
  }
  return checkedAddress(match.route.kind, slug);
}

/** kind + slug, with the same slug rule as the /api/md routes. */
export function checkedAddress(kind: DocumentKind, slug: string | undefined): PageAddress | { error: string } {
  const route = routeOf(kind);
  if (!hasSlug(route)) return { kind };
  if (slug === undefined) return { error: `slug is required for kind ${kind}` };
  if (!isValidSlug(slug)) return { error: "Malformed slug: slugs are lower-case letters and digits separated by single hyphens." };
  return { kind, slug };
}
