import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown-html";

const html = async (md: string) => renderToStaticMarkup(await renderMarkdown(md));

describe("renderMarkdown", () => {
  it("renders markdown: headings, lists, code, emphasis, links", async () => {
    const out = await html("## Title\n\n- **bold** and `code`\n\n[Intro](/courses/intro-to-sql)\n\n```sql\nSELECT 1 < 2;\n```\n");
    expect(out).toContain("<h2>Title</h2>");
    expect(out).toContain("<strong>bold</strong>");
    expect(out).toContain("<code>code</code>");
    expect(out).toContain('<a href="/courses/intro-to-sql">Intro</a>');
    expect(out).toContain('<code class="language-sql">SELECT 1 &lt; 2;\n</code>');
  });

  it("runs no JS expressions, imports, exports or JSX from stored content", async () => {
    const out = await html("import x from 'fs'\n\nexport const y = 1\n\nHello {process.env.AUTH_SECRET} {1+1}\n\n<Danger />\n");
    expect(out).not.toContain("2</");
    expect(out).not.toMatch(/dev-only|Danger/);
    expect(out).toContain("Hello {process.env.AUTH_SECRET} {1+1}");
  });

  it("drops raw HTML and unsafe URLs", async () => {
    const out = await html('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[click](javascript:alert(1)) ![i](data:image/svg+xml,x) ![ok](https://img.test/a.png)\n');
    expect(out).not.toMatch(/<script|onerror|javascript:|data:/i);
    expect(out).toContain("<span>click</span>");
    expect(out).toContain('<img src="https://img.test/a.png" alt="ok" loading="lazy"/>');
  });
});
