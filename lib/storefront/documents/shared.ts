// What every storefront document is built from: the request's school and origin, links, facts
// and the schema.org pieces they share.
import type { School } from "../../db/generated/client";
import { latest, type Fact, type FactValue, type LinkItem, type Section, type StorefrontDocument, type YamlValue } from "../document";
import { oneLine } from "../format";
import { htmlPathOf, markdownPathOf, type DocumentKind } from "../routes";

export interface BuildContext {
  school: Pick<School, "id" | "name" | "description" | "updatedAt">;
  /** Request origin (scheme://host[:port]) for absolute URLs. */
  origin: string;
  now: Date;
}

export const HOME_LIST_LIMIT = 20;

export function urls(ctx: BuildContext, kind: DocumentKind, slug?: string) {
  return { url: ctx.origin + htmlPathOf(kind, slug), markdownUrl: ctx.origin + markdownPathOf(kind, slug) };
}

export function link(ctx: BuildContext, kind: DocumentKind, slug: string, title: string, summary: string, meta?: string): LinkItem {
  return { title, summary: oneLine(summary), ...urls(ctx, kind, slug), ...(meta ? { meta } : {}) };
}

export function fact(key: string, label: string, ...values: FactValue[]): Fact {
  return { key, label, values };
}

export const text = (t: string): FactValue => ({ text: t });
export const iso = (d: Date) => d.toISOString();

export type CategoryRef = { slug: string; name: string; status: string } | null;

export function categoryOf(ctx: BuildContext, c: CategoryRef) {
  if (!c || c.status !== "published") return null;
  const u = urls(ctx, "category", c.slug);
  return { yaml: { name: c.name, slug: c.slug, url: u.url, markdown_url: u.markdownUrl } as YamlValue, value: { text: c.name, ...u } };
}

export function priceFields(price: string, currency: string): Record<string, YamlValue> {
  return { price, currency };
}

export function organization(ctx: BuildContext) {
  return { "@type": "Organization", name: ctx.school.name, url: ctx.origin + "/" };
}

export function offer(url: string, price: string, currency: string) {
  return { "@type": "Offer", price, priceCurrency: currency, url, availability: "https://schema.org/InStock" };
}

/**
 * A course's offer as Google's course rich results ask for it: `category` Paid or Free; a course
 * without a price of its own comes with a membership plan (Subscription).
 */
export function courseOffer(url: string, price: string | null, currency: string | null) {
  if (price === null || !currency) return { "@type": "Offer", category: "Subscription", url, availability: "https://schema.org/InStock" };
  return { ...offer(url, price, currency), category: Number(price) === 0 ? "Free" : "Paid" };
}

export function section(key: string, heading: string, items: LinkItem[]): Section[] {
  return items.length ? [{ key, heading, items }] : [];
}

export function itemList(items: LinkItem[]) {
  return {
    "@type": "ItemList",
    itemListElement: items.map((item, i) => ({ "@type": "ListItem", position: i + 1, url: item.url, name: item.title })),
  };
}

/** An index page (courses, lecturers): one list of every item, a schema.org CollectionPage. */
export function indexDocument(
  ctx: BuildContext,
  o: { kind: "course_index" | "lecturer_index"; slug: string; title: string; description: string; items: LinkItem[]; rows: Array<{ updatedAt: Date }> },
): StorefrontDocument {
  const u = urls(ctx, o.kind);
  return {
    kind: o.kind,
    slug: o.slug,
    title: o.title,
    description: o.description,
    ...u,
    updated: latest(o.rows.map((r) => r.updatedAt), ctx.school.updatedAt),
    fields: { count: o.rows.length },
    facts: [],
    body: "",
    sections: section(o.slug, o.title, o.items),
    jsonLd: { "@context": "https://schema.org", "@type": "CollectionPage", name: o.title, url: u.url, mainEntity: itemList(o.items) },
  };
}
