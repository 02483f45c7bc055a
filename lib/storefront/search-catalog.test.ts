import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATALOG_KINDS, indexCatalog, queryCatalog, words, type CatalogEntry, type CatalogKind } from "./search-catalog";

// The definition the index must answer exactly as: every entry walked, each of its words tried
// (split into words as the search splits them).
function byWalking(entries: CatalogEntry[], options: { query: string; kind?: CatalogKind; limit: number }): CatalogEntry[] {
  const terms = words(options.query);
  const scored: Array<{ e: CatalogEntry; score: number }> = [];
  for (const e of entries) {
    if (options.kind && e.kind !== options.kind) continue;
    const title = words(e.title);
    const text = [...title, ...words(e.summary)];
    if (!terms.every((t) => text.some((w) => w.startsWith(t)))) continue;
    scored.push({ e, score: terms.filter((t) => title.some((w) => w.startsWith(t))).length });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, options.limit)
    .map((s) => s.e);
}

const vocabulary = ["SQL", "sql", "Python", "py", "data", "Daten", "Café", "cafe", "résumé", "a", "an", "analysis", "2026", "20", "β-test", "naïve", "Ω", "x_y", "intro", "introduction", ""];
const text = fc
  .tuple(fc.array(fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 6 })), { maxLength: 6 }), fc.constantFrom(" ", ", ", "-", "  ", "/"))
  .map(([ws, separator]) => ws.join(separator));
const entry = fc.record({ kind: fc.constantFrom(...CATALOG_KINDS), slug: fc.string({ maxLength: 4 }), title: text, summary: text }).map(
  (e): CatalogEntry => ({ ...e, url: `/x/${e.slug}`, markdown_url: `/x/${e.slug}.md`, price: null }),
);
const search = fc.record({
  query: fc.oneof(text, fc.constantFrom("", "sql", "SQL py", "caf", "a a", "résu", "ω", "intro data")),
  kind: fc.option(fc.constantFrom(...CATALOG_KINDS), { nil: undefined }),
  limit: fc.integer({ min: 1, max: 30 }),
});

describe("queryCatalog over indexCatalog", () => {
  it("answers as walking every entry does (matches, order, scores, kind, limit)", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 25, size: "max" }), fc.array(search, { minLength: 1, maxLength: 5 }), (entries, searches) => {
        const index = indexCatalog(entries);
        for (const s of searches) expect(queryCatalog(index, s)).toEqual(byWalking(entries, s));
      }),
      { seed: 20261127, numRuns: 400 },
    );
  });

  it("finds by word prefix, title matches first, case and accents ignored", () => {
    const e = (title: string, summary = ""): CatalogEntry => ({ kind: "course", slug: title, title, summary, url: "", markdown_url: "", price: null });
    const index = indexCatalog([e("Data basics", "with SQL"), e("SQL for analysts"), e("Café culture"), e("Other")]);
    expect(queryCatalog(index, { query: "sql", limit: 10 }).map((x) => x.title)).toEqual(["SQL for analysts", "Data basics"]);
    expect(queryCatalog(index, { query: "CAFE", limit: 10 }).map((x) => x.title)).toEqual(["Café culture"]);
    expect(queryCatalog(index, { query: "ql", limit: 10 })).toEqual([]);
    expect(queryCatalog(index, { query: "", limit: 3 }).map((x) => x.title)).toEqual(["Data basics", "SQL for analysts", "Café culture"]);
  });
});
