// /llms.txt (llmstxt.org) and /llms-full.txt.
import { allDocuments, catalogSections, type BuildContext } from "./build";
import { documentBody, linkTarget } from "./markdown";
import { inlineText, llmsLinkName } from "./markdown-text";
import { markdownPathOf } from "./routes";

interface LlmsLink {
  name: string;
  url: string;
  note: string;
}

function linkLine(l: LlmsLink): string {
  const note = inlineText(l.note);
  // The name is never empty (the reference parser needs one character); an empty note is left out.
  return `- [${llmsLinkName(l.name) || linkTarget(l.url)}](${linkTarget(l.url)})${note ? `: ${note}` : ""}`;
}

function h2(title: string, links: LlmsLink[]): string {
  return links.length ? `## ${title}\n\n${links.map(linkLine).join("\n")}\n` : "";
}

/**
 * llms.txt: one H1 (the school), a blockquote summary, a short paragraph, then H2 sections that
 * hold only `- [name](absolute url): note` lines, with `Optional` last. Content links point at the
 * markdown twins.
 */
export async function buildLlmsTxt(ctx: BuildContext): Promise<string> {
  const o = ctx.origin;
  const md = (path: string) => o + path;
  const sections = await catalogSections(ctx);
  const summary = inlineText(ctx.school.description, { lineStart: true }) || inlineText(`Courses and content of ${ctx.school.name}.`);

  const parts = [
    `# ${inlineText(ctx.school.name)}\n`,
    `> ${summary}\n`,
    "Every page of this site is also served as markdown with YAML frontmatter: follow the links below, or request a page with `Accept: text/markdown`.\n",
    h2("Pages", [
      { name: "Homepage", url: md(markdownPathOf("home")), note: "what the school offers, with current courses, plans and events" },
      { name: "FAQ", url: md(markdownPathOf("faq")), note: "frequently asked questions" },
      { name: "Course index", url: md(markdownPathOf("course_index")), note: "all courses with prices and levels" },
      { name: "Lecturer index", url: md(markdownPathOf("lecturer_index")), note: "the people who teach here" },
    ]),
    ...sections.map((s) =>
      h2(
        s.heading,
        s.items.map((i) => ({ name: i.title, url: i.markdownUrl, note: [i.meta, i.summary].filter(Boolean).join(". ") || i.title })),
      ),
    ),
    h2("Developers and agents", [
      { name: "OpenAPI description", url: `${o}/openapi.json`, note: "OpenAPI 3.0 description of the storefront content API and the OAuth 2.0 / OpenID Connect endpoints" },
      {
        name: "OAuth discovery",
        url: `${o}/.well-known/oauth-authorization-server`,
        note: "RFC 8414 authorization server metadata (authorization code with PKCE, tokens, UserInfo)",
      },
      {
        name: "MCP server",
        url: `${o}/.well-known/oauth-protected-resource/mcp`,
        note: `Model Context Protocol server at ${o}/mcp (Streamable HTTP, OAuth sign-in): search the catalog and read pages; members see their subscriptions, staff manage them. This link is its RFC 9728 resource metadata`,
      },
      { name: "Admin API docs", url: `${o}/admin/graphql`, note: "GraphiQL playground and schema of the Admin GraphQL API (preview; needs an API key)" },
    ]),
    h2("Optional", [{ name: "Full content", url: `${o}/llms-full.txt`, note: "every public page's markdown in one document" }]),
  ];
  return parts.filter(Boolean).join("\n");
}

/**
 * llms-full.txt: every public document's markdown, each starting with its title and source URL;
 * `changesAt` is the earliest time one of them changes without a write.
 */
export async function buildLlmsFullTxt(ctx: BuildContext): Promise<{ body: string; changesAt: Date | null }> {
  const docs = await allDocuments(ctx);
  const name = inlineText(ctx.school.name);
  const header = `# ${name}\n\n> ${inlineText(ctx.school.description, { lineStart: true })}\n\nAll public content of ${name} in one document (${docs.length} documents). Each starts with its title and source URL.\n`;
  const blocks = docs.map((doc) => {
    const [titleLine, ...rest] = documentBody(doc).split("\n");
    return `${titleLine}\n\nSource: ${doc.url}\nMarkdown: ${doc.markdownUrl}\n${rest.join("\n")}`;
  });
  const changes = docs.flatMap((d) => (d.changesAt ? [d.changesAt.getTime()] : []));
  return { body: [header, ...blocks].join("\n---\n\n"), changesAt: changes.length ? new Date(Math.min(...changes)) : null };
}
