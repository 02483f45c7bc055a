// What tells crawlers and agents how to read a school: Content-Signal (contentsignals.org), the
// Link header to a page's markdown twin, robots.txt and sitemap.xml.
import type { School } from "../db/generated/client";
import type { StorefrontDocument } from "./document";

export type SignalSettings = Pick<School, "contentSignalSearch" | "contentSignalAiInput" | "contentSignalAiTrain">;

const yesNo = (v: boolean) => (v ? "yes" : "no");

/** The school's Content-Signal value, e.g. `search=yes, ai-input=yes, ai-train=no`. */
export function contentSignal(s: SignalSettings): string {
  return `search=${yesNo(s.contentSignalSearch)}, ai-input=${yesNo(s.contentSignalAiInput)}, ai-train=${yesNo(s.contentSignalAiTrain)}`;
}

/** `Link` to a page's markdown twin (RFC 8288), which agents follow instead of parsing the HTML. */
export function markdownAlternateLink(markdownUrl: string): string {
  return `<${markdownUrl}>; rel="alternate"; type="text/markdown"`;
}

// Crawlers by purpose, as their operators document them. Named groups override `User-agent: *`.
const TRAINING_CRAWLERS = ["GPTBot", "ClaudeBot", "anthropic-ai", "CCBot", "Google-Extended", "Applebot-Extended", "Bytespider", "meta-externalagent"];
const AI_INPUT_AGENTS = ["ChatGPT-User", "OAI-SearchBot", "Claude-User", "Claude-SearchBot", "Perplexity-User", "PerplexityBot"];

/** Paths that are not content: sign-in, OAuth, the Admin API and service endpoints. */
const PRIVATE_PATHS = ["/login", "/oauth/", "/api/auth/", "/api/oauth/", "/api/cron/", "/api/health", "/admin/graphql"];

/**
 * robots.txt: the school's Content-Signal for every crawler, the sitemap, sign-in and API paths
 * disallowed; crawlers whose only purpose the school refuses (training, AI answers) disallowed
 * entirely; everything disallowed when the school refuses search or is an enterprise-training
 * school (its pages are for members only).
 */
export function robotsTxt(o: { school: SignalSettings & Pick<School, "name" | "enterpriseTraining">; origin: string }): string {
  const { school } = o;
  const signal = contentSignal(school);
  const closed = school.enterpriseTraining || !school.contentSignalSearch;
  const lines = [
    `# ${school.name.replace(/\s+/g, " ")}`,
    "# Content signals (https://contentsignals.org): search = appear in search results; ai-input = be used",
    "# as input to AI answers (retrieval, grounding); ai-train = be used to train or fine-tune AI models.",
    "",
    "User-agent: *",
    `Content-Signal: ${signal}`,
    ...(closed ? ["Disallow: /"] : ["Allow: /", ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`)]),
  ];
  const refused = [...(school.contentSignalAiTrain ? [] : TRAINING_CRAWLERS), ...(school.contentSignalAiInput ? [] : AI_INPUT_AGENTS)];
  if (refused.length && !closed) {
    lines.push("", "# Crawlers whose purpose this school's content signals refuse", ...refused.map((a) => `User-agent: ${a}`), `Content-Signal: ${signal}`, "Disallow: /");
  }
  if (!closed) lines.push("", `Sitemap: ${o.origin}/sitemap.xml`);
  return lines.join("\n") + "\n";
}

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** sitemap.xml (sitemaps.org 0.9): every public page with its last change. */
export function sitemapXml(docs: Pick<StorefrontDocument, "url" | "updated">[]): string {
  const urls = docs.map((d) => `  <url>\n    <loc>${xml(d.url)}</loc>\n    <lastmod>${d.updated.toISOString()}</lastmod>\n  </url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}${urls.length ? "\n" : ""}</urlset>\n`;
}
