import { describe, expect, it } from "vitest";
import { contentSignal, markdownAlternateLink, robotsTxt, sitemapXml } from "./discovery";

const open = { contentSignalSearch: true, contentSignalAiInput: true, contentSignalAiTrain: false };
const school = { name: "Demo\nAcademy", enterpriseTraining: false, ...open };

/** robots.txt groups: each `User-agent` run with the rules that follow it. */
function groups(text: string): Array<{ agents: string[]; rules: string[] }> {
  const out: Array<{ agents: string[]; rules: string[] }> = [];
  for (const line of text.split("\n").filter((l) => l && !l.startsWith("#"))) {
    const [key, value] = [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()];
    if (key === "User-agent") {
      if (!out.length || out.at(-1)!.rules.length) out.push({ agents: [], rules: [] });
      out.at(-1)!.agents.push(value);
    } else if (key !== "Sitemap") out.at(-1)!.rules.push(`${key}: ${value}`);
  }
  return out;
}

describe("contentSignal", () => {
  it("writes the three signals in the contentsignals.org form", () => {
    expect(contentSignal(open)).toBe("search=yes, ai-input=yes, ai-train=no");
    expect(contentSignal({ contentSignalSearch: false, contentSignalAiInput: false, contentSignalAiTrain: true })).toBe("search=no, ai-input=no, ai-train=yes");
  });
});

describe("markdownAlternateLink", () => {
  it("is an RFC 8288 alternate of type text/markdown", () => {
    expect(markdownAlternateLink("https://s.test/api/md/faq")).toBe('<https://s.test/api/md/faq>; rel="alternate"; type="text/markdown"');
  });
});

describe("robotsTxt", () => {
  it("by default: everyone may crawl the content, sign-in and APIs are off limits, training crawlers are refused", () => {
    const text = robotsTxt({ school, origin: "https://s.test" });
    expect(text.startsWith("# Demo Academy\n")).toBe(true);
    const [all, training] = groups(text);
    expect(all!.agents).toEqual(["*"]);
    expect(all!.rules).toContain("Content-Signal: search=yes, ai-input=yes, ai-train=no");
    expect(all!.rules).toContain("Allow: /");
    expect(all!.rules).toEqual(expect.arrayContaining(["Disallow: /login", "Disallow: /oauth/", "Disallow: /admin/graphql"]));
    expect(training!.agents).toEqual(expect.arrayContaining(["GPTBot", "ClaudeBot", "CCBot", "Google-Extended"]));
    expect(training!.rules).toContain("Disallow: /");
    expect(text).toContain("\nSitemap: https://s.test/sitemap.xml\n");
  });

  it("training allowed: no crawler is singled out", () => {
    expect(groups(robotsTxt({ school: { ...school, contentSignalAiTrain: true }, origin: "https://s.test" }))).toHaveLength(1);
  });

  it("AI input refused: assistants' fetchers are disallowed too", () => {
    const g = groups(robotsTxt({ school: { ...school, contentSignalAiInput: false }, origin: "https://s.test" }));
    expect(g[1]!.agents).toEqual(expect.arrayContaining(["GPTBot", "ChatGPT-User", "Claude-User", "Perplexity-User"]));
  });

  it.each([
    ["search refused", { ...school, contentSignalSearch: false }],
    ["an enterprise-training school", { ...school, enterpriseTraining: true }],
  ])("%s: everything is disallowed and no sitemap is offered", (_name, s) => {
    const text = robotsTxt({ school: s, origin: "https://s.test" });
    expect(groups(text)).toEqual([{ agents: ["*"], rules: [`Content-Signal: ${contentSignal(s)}`, "Disallow: /"] }]);
    expect(text).not.toContain("Sitemap:");
  });
});

describe("sitemapXml", () => {
  it("lists each URL with its last change, XML-escaped", () => {
    const xml = sitemapXml([{ url: "https://s.test/courses/a?x=1&y=<2>", updated: new Date("2026-01-02T03:04:05Z") }]);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url>\n    <loc>https://s.test/courses/a?x=1&amp;y=&lt;2&gt;</loc>\n    <lastmod>2026-01-02T03:04:05.000Z</lastmod>\n  </url>\n</urlset>\n',
    );
    expect(sitemapXml([])).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n');
  });
});
