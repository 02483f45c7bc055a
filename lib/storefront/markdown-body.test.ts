import fc from "fast-check";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { describe, expect, it } from "vitest";
import { sanitizeMarkdown } from "./markdown-body";
import { safeHref } from "./safe-url";

function nodes(markdown: string): Nodes[] {
  const out: Nodes[] = [];
  const walk = (n: Nodes) => {
    out.push(n);
    if ("children" in n) n.children.forEach((c) => walk(c as Nodes));
  };
  walk(fromMarkdown(markdown));
  return out;
}

/** What the sanitizer promises for any input. */
function expectInert(markdown: string) {
  for (const n of nodes(markdown)) {
    expect(n.type).not.toBe("html");
    if (n.type === "link" || n.type === "image" || n.type === "definition") expect(safeHref(n.url), n.url).not.toBeNull();
    if (n.type === "heading") expect(n.depth).toBeGreaterThan(1);
  }
}

// Strings made of the characters markdown cares about, so fast-check finds structure quickly.
const markdownish = fc.string({
  unit: fc.constantFrom(..."#>-*_`~[]()!<>:/=\\&;|\n \tajsvcrptdh1.\"'", "javascript:", "data:", "<script>", "```", "<!--", "-->", "onerror=", "](", "\n\n", "# ", "===\n"),
  maxLength: 80,
});

describe("sanitizeMarkdown", () => {
  it("keeps ordinary markdown byte for byte", () => {
    const body = "## Part\n\nSome **bold**, `code` and a [link](/courses/x).\n\n- a\n- b\n\n```sql\nSELECT 1 < 2;\n```\n\n![pic](https://img.test/a.png)";
    expect(sanitizeMarkdown(body)).toBe(body);
  });

  it.each([
    ["<script>alert(1)</script>\n\nafter", "after"],
    ['Hi <img src=x onerror="alert(1)"> there', "Hi  there"],
    ["[click](javascript:alert(1)) ok", "click ok"],
    ["[click](JAVA\tSCRIPT:alert(1))", "[click](JAVA\tSCRIPT:alert(1))"],
    ["[x](javascript&#58;alert(1))", "x"],
    ["![i](data:image/svg+xml,x)!", "!"],
    ["<javascript:alert(1)>", "javascript:alert(1)"],
    ["[a][r]\n\n[r]: javascript:alert(1)", "[a][r]"],
    ["# Injected H1\n\ntext", "## Injected H1\n\ntext"],
    ["  # Indented H1", "  ## Indented H1"],
    ["Setext\n===", "Setext\n---"],
    ["> # quoted", "> ## quoted"],
    ["```\nnever closed", "```\nnever closed\n```"],
    ["<<b>script>alert(1)<</b>/script>", ""],
    ["\n\n    indented code\n\n", "    indented code"],
  ])("%j → %j", (input, output) => {
    const out = sanitizeMarkdown(input);
    expect(out).toBe(output);
    expectInert(out);
  });

  it("property: any input comes out inert, idempotent, and closed (what follows it keeps its structure)", () => {
    fc.assert(
      fc.property(markdownish, (input) => {
        const out = sanitizeMarkdown(input);
        expectInert(out);
        expect(sanitizeMarkdown(out)).toBe(out);
        const tail = fromMarkdown(`${out}\n\n## Tail heading\n`).children.at(-1);
        expect(tail?.type).toBe("heading");
      }),
      { seed: 18, numRuns: 2000 },
    );
  }, 60_000);
});
