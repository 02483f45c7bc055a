// The one escaping rule for plain text (titles, summaries, names, headlines, notes) placed in
// markdown: the text reads the same and can never become markup (a heading, a list, a link or image, raw
// HTML, an entity, emphasis, code, a table cell) in any CommonMark or GFM renderer.
import { oneLine } from "./format";

// Every ASCII punctuation character with an inline meaning in CommonMark or GFM. A backslash before
// any ASCII punctuation is a valid escape, so the escaped text renders as the original characters.
const INLINE = /[\\`*_[\]<>|~#]/g;

export interface InlineTextOptions {
  /**
   * The text starts a line (a paragraph, a block quote's text): list markers, block quotes, setext
   * underlines, thematic breaks and ordered-list numbers ("1." / "1)") count there and are escaped.
   * Elsewhere ("# title", "- **Price:** 49.00 USD") they are plain text and stay unescaped.
   */
  lineStart?: boolean;
}

/** Plain text as one line of inert markdown. */
export function inlineText(text: string, options: InlineTextOptions = {}): string {
  const out = oneLine(text)
    .replace(INLINE, "\\$&")
    // Entity and numeric references (&lt; &#60;) would be decoded; a bare & stays readable.
    .replace(/&(?=#?[a-z0-9]+;)/gi, "\\&");
  return options.lineStart ? out.replace(/^([-+=>])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2") : out;
}

/**
 * A link label of an llms.txt line. The llmstxt.org reference parser reads `[title](url)` with
 * `[^\]]+` for the title, so even an escaped `\]` would end it early: square brackets are written
 * as numeric character references, which every markdown renderer shows as the brackets.
 */
export function llmsLinkName(text: string): string {
  return inlineText(text)
    .replace(/\\\[/g, "&#91;")
    .replace(/\\\]/g, "&#93;");
}
