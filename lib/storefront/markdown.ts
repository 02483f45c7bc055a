// Markdown twin of a storefront document: YAML frontmatter, then the same facts and body the
// HTML page shows.
import { stringify } from "yaml";
import type { Fact, FactValue, Section, StorefrontDocument, YamlValue } from "./document";
import { oneLine } from "./format";
import { inlineText } from "./markdown-text";

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

/**
 * A URL (already through safeHref) as a markdown link destination: angle brackets when it has
 * parentheses, and no character that could end the destination or start an escape.
 */
export function linkTarget(url: string): string {
  const encoded = url.replace(/[<>\s\\]/g, encodeURIComponent);
  return /[()]/.test(encoded) ? `<${encoded}>` : encoded;
}

function factValue(v: FactValue): string {
  return v.markdownUrl ? `[${inlineText(v.text)}](${linkTarget(v.markdownUrl)})` : inlineText(v.text);
}

function factLine(f: Fact): string {
  const values = f.values.map(factValue).join(", ");
  const stamp = f.values.length === 1 && f.values[0]!.datetime ? ` (${f.values[0]!.datetime})` : "";
  return `- **${f.label}:** ${values}${stamp}`;
}

export function sectionMarkdown(s: Section): string {
  const lines = s.items.map((i) => {
    const note = [i.meta, i.summary].filter(Boolean).map((t) => inlineText(t!)).join(". ");
    return `- [${inlineText(i.title)}](${linkTarget(i.markdownUrl)})${note ? `: ${note}` : ""}`;
  });
  return `## ${inlineText(s.heading)}\n\n${lines.join("\n")}\n`;
}

/**
 * The document's markdown without frontmatter: title, description, image, facts, body, sections.
 * Plain-text fields go through inlineText and the body was cleaned by sanitizeMarkdown when the
 * document was built, so no stored text can add a heading, a link or HTML of its own.
 */
export function documentBody(doc: StorefrontDocument): string {
  const parts = [`# ${inlineText(doc.title)}\n`];
  if (doc.description.trim()) parts.push(`${inlineText(doc.description, { lineStart: true })}\n`);
  if (doc.image) parts.push(`![${inlineText(doc.title)}](${linkTarget(doc.image)})\n`);
  if (doc.facts.length) parts.push(doc.facts.map(factLine).join("\n") + "\n");
  if (doc.body.trim()) parts.push(doc.body.trimEnd() + "\n");
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
