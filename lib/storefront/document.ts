// The one source of truth per storefront item: a typed document that both the HTML page and the
// markdown twin render, so the facts they show cannot drift apart.
import type { DocumentKind } from "./routes";

export interface FactValue {
  text: string;
  /** Absolute HTML URL of a linked item. */
  url?: string;
  /** Absolute markdown URL of a linked item (the markdown twin links agents here). */
  markdownUrl?: string;
  /** Machine-readable instant (ISO-8601 with offset) for <time datetime>. */
  datetime?: string;
}

export interface Fact {
  /** Stable key, used by the HTML as a data attribute and by tests. */
  key: string;
  label: string;
  values: FactValue[];
}

export interface LinkItem {
  title: string;
  url: string;
  markdownUrl: string;
  summary: string;
  meta?: string;
}

export interface Section {
  key: string;
  heading: string;
  items: LinkItem[];
}

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export interface StorefrontDocument {
  kind: DocumentKind;
  slug: string;
  title: string;
  description: string;
  /** Absolute URL of the HTML page. */
  url: string;
  /** Absolute URL of the markdown twin. */
  markdownUrl: string;
  /** Absolute http(s) URL of the item's picture (course, post or event cover, lecturer avatar), already safeHref'd. */
  image?: string | null;
  updated: Date;
  /** Kind-specific frontmatter keys, in order, after the common ones. */
  fields: Record<string, YamlValue>;
  facts: Fact[];
  /** Markdown body as stored by the school, through sanitizeMarkdown (lib/storefront/markdown-body.ts). */
  body: string;
  sections: Section[];
  /** schema.org JSON-LD for the HTML page. */
  jsonLd: Record<string, unknown>;
  /** When the document changes without any write (an upcoming event ends); caches expire it then. */
  changesAt?: Date | null;
}

export function latest(dates: Array<Date | null | undefined>, fallback: Date): Date {
  let max: Date | null = null;
  for (const d of dates) if (d && (!max || d > max)) max = d;
  return max ?? fallback;
}
