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

/** The words a search matches on: lower case, accents dropped, split at anything not a letter or digit. */
export const words = (text: string) => text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * A catalog made searchable once, when it is cached: every distinct word of the titles and summaries
 * in sorted order, and for each the entries (by catalog position, ascending) whose title and summary,
 * or whose title alone, hold it. A search then looks up each of its words' prefix ranges instead of
 * walking every entry, so it costs the same in a catalog of 10 entries as in one of 10,000 when few
 * match (docs/benchmarks.md, "MCP").
 */
export interface CatalogIndex {
  entries: CatalogEntry[];
  words: string[];
  inText: number[][];
  inTitle: number[][];
}

export function indexCatalog(entries: CatalogEntry[]): CatalogIndex {
  const text = new Map<string, Set<number>>();
  const title = new Map<string, Set<number>>();
  const add = (m: Map<string, Set<number>>, w: string, i: number) => {
    let set = m.get(w);
    if (!set) m.set(w, (set = new Set()));
    set.add(i);
  };
  entries.forEach((e, i) => {
    for (const w of words(e.title)) {
      add(title, w, i);
      add(text, w, i);
    }
    for (const w of words(e.summary)) add(text, w, i);
  });
  const sorted = [...text.keys()].sort();
  return { entries, words: sorted, inText: sorted.map((w) => [...text.get(w)!]), inTitle: sorted.map((w) => [...(title.get(w) ?? [])]) };
}

/** The entries (catalog positions) with a word starting with `prefix`, in `lists` (inText or inTitle). */
function withPrefix(index: CatalogIndex, lists: number[][], prefix: string): Set<number> {
  const { words: all } = index;
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (all[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const found = new Set<number>();
  for (let i = lo; i < all.length && all[i]!.startsWith(prefix); i++) for (const e of lists[i]!) found.add(e);
  return found;
}

/**
 * Entries whose title or summary hold a word starting with every word of the query (case and
 * accents ignored), those with more of the query's words in their title first, then in catalog
 * order. An empty query lists everything.
 */
export function queryCatalog(index: CatalogIndex, options: { query: string; kind?: CatalogKind; limit: number }): CatalogEntry[] {
  const terms = words(options.query);
  let matched: number[];
  if (terms.length === 0) {
    matched = index.entries.map((_, i) => i);
  } else {
    const sets = [...new Set(terms)].map((t) => withPrefix(index, index.inText, t)).sort((a, b) => a.size - b.size);
    matched = [...sets[0]!].filter((i) => sets.every((s) => s.has(i))).sort((a, b) => a - b);
  }
  if (options.kind) matched = matched.filter((i) => index.entries[i]!.kind === options.kind);
  const inTitle = new Map<string, Set<number>>();
  const titleSet = (t: string) => {
    let set = inTitle.get(t);
    if (!set) inTitle.set(t, (set = withPrefix(index, index.inTitle, t)));
    return set;
  };
  return matched
    .map((i) => ({ e: index.entries[i]!, score: terms.filter((t) => titleSet(t).has(i)).length }))
    .sort((a, b) => b.score - a.score)
    .slice(0, options.limit)
    .map((s) => s.e);
}

/**
 * Published items whose title or summary contain every word of the query (case and accents
 * ignored), title matches first, in catalog order. An empty query lists everything.
 */
export async function searchCatalog(options: { ctx: BuildContext; query: string; kind?: CatalogKind; limit: number }): Promise<CatalogEntry[]> {
  const { ctx } = options;
  const index = await cachedContent(["catalog-search", ctx.school.id, ctx.school.updatedAt.getTime(), ctx.origin].join("\u0000"), async () => {
    const value = indexCatalog(await catalogEntries(ctx));
    const bytes =
      value.entries.reduce((n, e) => n + 256 + 2 * (e.title.length + e.summary.length), 0) +
      value.words.reduce((n, w, i) => n + 64 + 2 * w.length + 8 * (value.inText[i]!.length + value.inTitle[i]!.length), 0);
    return { value, bytes };
  });
  return queryCatalog(index, options);
}
