// Markdown twin of a storefront document: YAML frontmatter, then the same facts and body the
// HTML page shows.
import { stringify } from "yaml";
import type { Fact, FactValue, Section, StorefrontDocument, YamlValue } from "./document";
import { oneLine } from "./format";

/** Frontmatter: common keys first (type, title, description, url, markdown_url, slug, updated). */
export function frontmatterOf(doc: StorefrontDocument): Record<string, YamlValue> {
  return {
    type: doc.kind,
    title: doc.title,
    description: oneLine(doc.description),
    url: doc.url,
    markdown_url: doc.markdownUrl,
    slug: doc.slug,
    updated: doc.updated.toISOString(),
    ...doc.fields,
  };
}

/**
 * YAML written by a YAML library, never by string concatenation. Every string is double-quoted so
 * dates and decimal prices stay strings for any YAML 1.1 or 1.2 parser ("49.00", not 49).
 */
export function toYaml(data: Record<string, YamlValue>): string {
  return stringify(data, { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN", lineWidth: 0 });
}

/** Escapes text placed inside a markdown link label. */
export function linkLabel(text: string): string {
  return oneLine(text).replace(/([\\[\]])/g, "\\$1");
}

/** A URL usable as a markdown link destination (angle brackets when it has spaces or parentheses). */
export function linkTarget(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>\s]/g, encodeURIComponent)}>` : url;
}

function factValue(v: FactValue): string {
  return v.markdownUrl ? `[${linkLabel(v.text)}](${linkTarget(v.markdownUrl)})` : oneLine(v.text);
}

function factLine(f: Fact): string {
  const values = f.values.map(factValue).join(", ");
  const stamp = f.values.length === 1 && f.values[0]!.datetime ? ` (${f.values[0]!.datetime})` : "";
  return `- **${f.label}:** ${values}${stamp}`;
}

export function sectionMarkdown(s: Section): string {
  const lines = s.items.map((i) => {
    const note = [i.meta, i.summary].filter(Boolean).map((t) => oneLine(t!)).join(". ");
    return `- [${linkLabel(i.title)}](${linkTarget(i.markdownUrl)})${note ? `: ${note}` : ""}`;
  });
  return `## ${oneLine(s.heading)}\n\n${lines.join("\n")}\n`;
}

/** The document's markdown without frontmatter: title, description, facts, body, sections. */
export function documentBody(doc: StorefrontDocument): string {
  const parts = [`# ${oneLine(doc.title)}\n`];
  if (doc.description.trim()) parts.push(`${doc.description.trim()}\n`);
  if (doc.facts.length) parts.push(doc.facts.map(factLine).join("\n") + "\n");
  if (doc.body.trim()) parts.push(doc.body.trim() + "\n");
  for (const s of doc.sections) parts.push(sectionMarkdown(s));
  return parts.join("\n");
}

export function toMarkdown(doc: StorefrontDocument): string {
  return `---\n${toYaml(frontmatterOf(doc))}---\n\n${documentBody(doc)}`;
}

/**
 * Estimated token count for x-markdown-tokens: about four characters per token, the usual rule of
 * thumb for English text with BPE tokenizers. Agents use it to budget context, not to bill.
 */
export function estimateTokens(markdown: string): number {
  return Math.ceil([...markdown].length / 4);
}
