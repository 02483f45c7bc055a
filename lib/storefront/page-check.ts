// What the proxy checks before a storefront HTML page renders. A server component cannot answer
// 503 or add a header, so the proxy builds (or finds) the page's document first: the page then
// renders from the content cache, and the proxy knows whether that copy is fresh, the last built
// one (the database is unavailable), or missing (nothing to show: 503 here, never a 500 later).
import { now } from "../clock";
import type { School } from "../db/generated/client";
import { cachedDocument } from "./cached";
import { pageOrigin } from "./http";
import { hasSlug, isValidSlug, type PageMatch } from "./routes";

/**
 * Whether the page's document comes from a stale copy. Throws DatabaseUnavailableError when the
 * database is unavailable and the page was never built in this process.
 */
export async function pageDocumentIsStale(o: { headers: Headers; school: School; page: PageMatch }): Promise<boolean> {
  const { route, slug } = o.page;
  // Malformed slugs render the 404 page without touching the database.
  if (hasSlug(route) && (slug === undefined || !isValidSlug(slug))) return false;
  const { stale } = await cachedDocument({ school: o.school, origin: pageOrigin(o.headers), now: now() }, route.kind, slug);
  return stale;
}
