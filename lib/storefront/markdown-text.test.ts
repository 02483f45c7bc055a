import fc from "fast-check";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";
import { describe, expect, it } from "vitest";
import { inlineText, llmsLinkName } from "./markdown-text";

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

describe("inlineText", () => {
  it.each([
    ["Intro to SQL", "Intro to SQL"],
    ["49.00 USD", "49.00 USD"],
    ["Data & Analytics", "Data & Analytics"],
    ["&lt;b&gt;", "\\&lt;b\\&gt;"],
    ["[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))"],
    ["<script>", "\\<script\\>"],
    ["Summary\n\n# H1", "Summary \\# H1"],
    ["C# *and* _F#_", "C\\# \\*and\\* \\_F\\#\\_"],
  ])("%j → %j", (input, out) => {
    expect(inlineText(input)).toBe(out);
  });

  it("escapes block syntax at the start of a line only when asked", () => {
    expect(inlineText("1. first", { lineStart: true })).toBe("1\\. first");
    expect(inlineText("- item", { lineStart: true })).toBe("\\- item");
    expect(inlineText("> quote", { lineStart: true })).toBe("\\> quote");
    expect(inlineText("1. first")).toBe("1. first");
  });

  it("property: as a paragraph, a heading or a link label it is exactly the text, with no markup", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: fc.constantFrom(..."#>-+=*_`~[]()!<>&;|:\\1. \n\tax", "&#91;", "&amp;", "```") }), fc.string({ unit: "grapheme" })), (text) => {
        const expected = oneLine(text);
        const para = fromMarkdown(inlineText(text, { lineStart: true }));
        if (expected) {
          expect(para.children).toHaveLength(1);
          expect(para.children[0]!.type).toBe("paragraph");
        }
        expect(toString(para)).toBe(expected);
        const heading = fromMarkdown(`# ${inlineText(text)}`);
        expect(heading.children).toHaveLength(1);
        expect(toString(heading)).toBe(expected);
        const link = fromMarkdown(`[${inlineText(text)}](/x)`).children[0];
        if (expected) {
          expect(link?.type === "paragraph" && link.children.length === 1 && link.children[0]!.type === "link").toBe(true);
          expect(toString(link!)).toBe(expected);
        }
      }),
      { seed: 18, numRuns: 1500 },
    );
  }, 60_000);
});

describe("llmsLinkName", () => {
  it("writes brackets as character references, which render as brackets", () => {
    const name = llmsLinkName("Data Viz [Beta] ](x)");
    expect(name).not.toMatch(/[[\]]/);
    expect(toString(fromMarkdown(`[${name}](/x)`))).toBe("Data Viz [Beta] ](x)");
  });
});
