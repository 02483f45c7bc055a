// What the proxy checks before a storefront HTML page renders. A server component cannot answer
// 503 or add a header, so the proxy finds (or builds) the page's document first: it knows whether
// that copy is fresh, the last built one (the database is unavailable), or missing (nothing to
// show: 503 here, never a 500 later), and the document's hash names the cached rendering
// (lib/storefront/page-cache.ts). On the hot path this is a content-cache hit: no query.
import { now } from "../clock";
import type { School } from "../db/generated/client";
import { cachedDocument } from "./cached";
import type { StorefrontDocument } from "./document";
import { hasSlug, isValidSlug, type PageMatch } from "./routes";

/**
 * The page's document and whether it is a stale copy; null when the slug is malformed (the 404
 * page, rendered without touching the database). `doc` is null when no published item has the
 * slug. Throws DatabaseUnavailableError when the database is unavailable and the page was never
 * built in this process.
 */
export async function pageDocument(o: {
  origin: string;
  school: School;
  page: PageMatch;
}): Promise<{ doc: StorefrontDocument | null; stale: boolean } | null> {
  const { route, slug } = o.page;
  if (hasSlug(route) && (slug === undefined || !isValidSlug(slug))) return null;
  const { value, stale } = await cachedDocument({ school: o.school, origin: o.origin, now: now() }, route.kind, slug);
  return { doc: value, stale };
}
