// search_catalog (MCP): the published catalog, matched on title and summary. Built from the same
// published-only queries as llms.txt, behind the content cache, so a search costs no query while
// the school's content is unchanged.
import { cachedContent } from "../db/content-cache";
import type { BuildContext } from "./build";
import { moneyString, oneLine } from "./format";
import { loadCatalog } from "./queries";
import { htmlPathOf, markdownPathOf, type DocumentKind } from "./routes";

export const CATALOG_KINDS = ["course", "post", "event", "digital_download", "plan", "category", "lecturer"] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];

export interface CatalogEntry {
  kind: CatalogKind;
  slug: string;
  title: string;
  url: string;
  markdown_url: string;
  summary: string;
  price: { amount: string; currency: string } | null;
}

type Priced = { price: { toFixed(n: number): string } | null; currency: string | null };
const priceOf = (r: Priced) => (r.price !== null && r.currency ? { amount: moneyString(r.price), currency: r.currency } : null);

async function catalogEntries(ctx: BuildContext): Promise<CatalogEntry[]> {
  const c = await loadCatalog(ctx.school.id);
  const entry = (kind: CatalogKind & DocumentKind, slug: string, title: string, summary: string, price: CatalogEntry["price"] = null): CatalogEntry => ({
    kind,
    slug,
    title,
    url: ctx.origin + htmlPathOf(kind, slug),
    markdown_url: ctx.origin + markdownPathOf(kind, slug),
    summary: oneLine(summary),
    price,
  });
  return [
    ...c.courses.map((r) => entry("course", r.slug, r.title, r.summary, priceOf(r))),
    ...c.plans.map((r) => entry("plan", r.slug, r.name, r.description, priceOf(r))),
    ...c.events.map((r) => entry("event", r.slug, r.title, r.summary, priceOf(r))),
    ...c.posts.map((r) => entry("post", r.slug, r.title, r.excerpt)),
    ...c.downloads.map((r) => entry("digital_download", r.slug, r.title, r.summary, priceOf(r))),
    ...c.categories.map((r) => entry("category", r.slug, r.name, r.description)),
    ...c.lecturers.map((r) => entry("lecturer", r.slug, r.name, r.headline)),
  ];
}

const words = (text: string) => text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** An entry with its words split once, when the catalog is cached, instead of on every search. */
interface Indexed {
  e: CatalogEntry;
  title: string[];
  text: string[];
}

function indexed(e: CatalogEntry): Indexed {
  const title = [...new Set(words(e.title))];
  return { e, title, text: [...new Set([...title, ...words(e.summary)])] };
}

/**
 * Published items whose title or summary contain every word of the query (case and accents
 * ignored), title matches first, in catalog order. An empty query lists everything.
 */
export async function searchCatalog(options: { ctx: BuildContext; query: string; kind?: CatalogKind; limit: number }): Promise<CatalogEntry[]> {
  const { ctx } = options;
  const all = await cachedContent(["catalog-search", ctx.school.id, ctx.school.updatedAt.getTime(), ctx.origin].join("\u0000"), async () => {
    const value = (await catalogEntries(ctx)).map(indexed);
    return { value, bytes: value.reduce((n, i) => n + 256 + 2 * (i.e.title.length + i.e.summary.length), 0) };
  });
  const terms = words(options.query);
  const scored: Array<{ e: CatalogEntry; score: number }> = [];
  for (const { e, title, text } of all) {
    if (options.kind && e.kind !== options.kind) continue;
    const hit = (t: string) => text.some((w) => w.startsWith(t));
    if (!terms.every(hit)) continue;
    scored.push({ e, score: terms.filter((t) => title.some((w) => w.startsWith(t))).length });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, options.limit)
    .map((s) => s.e);
}
