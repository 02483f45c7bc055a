// /llms.txt (llmstxt.org) and /llms-full.txt.
import { allDocuments, catalogSections, type BuildContext } from "./build";
import type { StorefrontDocument } from "./document";
import type { DocumentKind } from "./routes";
import { documentBody, linkTarget } from "./markdown";
import { inlineText, llmsLinkName } from "./markdown-text";
import { markdownPathOf } from "./routes";

/** Where agents read the Admin API's schema without a key (app/admin/graphql/schema.graphql). */
export const ADMIN_SDL_PATH = "/admin/graphql/schema.graphql";

interface LlmsLink {
  name: string;
  url: string;
  note: string;
  /** A URL the note ends with, written as an autolink (a bare URL is not a link in CommonMark). */
  noteUrl?: string;
}

function linkLine(l: LlmsLink): string {
  const note = inlineText(l.note) + (l.noteUrl ? ` <${l.noteUrl.replace(/[<>\s\\]/g, encodeURIComponent)}>` : "");
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
        note: "Model Context Protocol server (Streamable HTTP, OAuth sign-in): search the catalog and read pages; members see their subscriptions, staff manage them. This link is its RFC 9728 resource metadata; the server is at",
        noteUrl: `${o}/mcp`,
      },
      {
        name: "MCP server card",
        url: `${o}/.well-known/mcp/server-card.json`,
        note: "MCP Server Card (SEP-2127) of the MCP server: its name, Streamable HTTP endpoint, protocol versions and the Authorization header it needs",
      },
      // The schema itself, readable without a key (the playground at /admin/graphql answers 401 to an agent).
      {
        name: "Admin API schema",
        url: `${o}${ADMIN_SDL_PATH}`,
        note: "GraphQL SDL of the Admin API (preview); requests to /admin/graphql need an API key",
      },
    ]),
    h2("Optional", [{ name: "Full content", url: `${o}/llms-full.txt`, note: "every public page's markdown in one document" }]),
  ];
  return parts.filter(Boolean).join("\n");
}

/**
 * llms-full.txt stays one document while it holds at most this many characters. Tools that load
 * llms-full.txt into a model's context often cut it near 100,000 characters (about 25,000 tokens),
 * so past this budget llms-full.txt becomes an index of parts (/llms-full/<part>.txt), one or more
 * per section, each within the budget and holding whole documents.
 */
export const LLMS_FULL_BUDGET = 90_000;

const PART_OF: Record<DocumentKind, { key: string; heading: string }> = {
  home: { key: "pages", heading: "Pages" },
  faq: { key: "pages", heading: "Pages" },
  course_index: { key: "pages", heading: "Pages" },
  lecturer_index: { key: "pages", heading: "Pages" },
  course: { key: "courses", heading: "Courses" },
  plan: { key: "plans", heading: "Membership plans" },
  event: { key: "events", heading: "Events" },
  post: { key: "posts", heading: "Posts" },
  digital_download: { key: "digital-downloads", heading: "Digital downloads" },
  category: { key: "categories", heading: "Categories" },
  lecturer: { key: "lecturers", heading: "Lecturers" },
};

export interface LlmsFullPart {
  /** URL path segment without ".txt": "courses", or "courses-2" when a section needs several parts. */
  name: string;
  body: string;
}

export interface LlmsFull {
  /** /llms-full.txt: every document, or the index of the parts past the budget. */
  body: string;
  parts: LlmsFullPart[];
  changesAt: Date | null;
}

export const llmsFullPartPath = (name: string) => `/llms-full/${name}.txt`;

function documentBlock(doc: StorefrontDocument): string {
  const [titleLine, ...rest] = documentBody(doc).split("\n");
  return `${titleLine}\n\nSource: <${doc.url}>\nMarkdown: <${doc.markdownUrl}>\n${rest.join("\n")}`;
}

/** Greedy packing in catalog order: a part takes blocks while it fits; a single larger block gets a part of its own. */
function pack(blocks: string[], room: number): string[][] {
  const chunks: string[][] = [];
  let size = Infinity;
  for (const b of blocks) {
    const cost = b.length + 5;
    if (size + cost > room) {
      chunks.push([]);
      size = 0;
    }
    chunks.at(-1)!.push(b);
    size += cost;
  }
  return chunks;
}

/**
 * llms-full.txt: every public document's markdown, each starting with its title and source URL;
 * split into linked parts past `budget` characters. `changesAt` is the earliest time one of them
 * changes without a write.
 */
export async function buildLlmsFull(ctx: BuildContext, budget = LLMS_FULL_BUDGET): Promise<LlmsFull> {
  const docs = await allDocuments(ctx);
  const name = inlineText(ctx.school.name);
  const quote = `> ${inlineText(ctx.school.description, { lineStart: true })}`;
  const changes = docs.flatMap((d) => (d.changesAt ? [d.changesAt.getTime()] : []));
  const changesAt = changes.length ? new Date(Math.min(...changes)) : null;
  const blocks = docs.map(documentBlock);

  const header = `# ${name}\n\n${quote}\n\nAll public content of ${name} in one document (${docs.length} documents). Each starts with its title and source URL.\n`;
  const whole = [header, ...blocks].join("\n---\n\n");
  if (whole.length <= budget) return { body: whole, parts: [], changesAt };

  const groups = new Map<string, { heading: string; blocks: string[] }>();
  docs.forEach((doc, i) => {
    const { key, heading } = PART_OF[doc.kind];
    if (!groups.has(key)) groups.set(key, { heading, blocks: [] });
    groups.get(key)!.blocks.push(blocks[i]!);
  });
  const parts: LlmsFullPart[] = [];
  const index: string[] = [];
  const room = budget - 1_000; // the part's own header
  for (const [key, group] of groups) {
    const chunks = pack(group.blocks, room);
    chunks.forEach((chunk, i) => {
      const partName = chunks.length === 1 ? key : `${key}-${i + 1}`;
      const label = chunks.length === 1 ? group.heading : `${group.heading}, part ${i + 1} of ${chunks.length}`;
      const partHeader =
        `# ${name}: ${label}\n\n${quote}\n\n${chunk.length} of the ${docs.length} public documents of ${name}; ` +
        `the index of all parts is <${ctx.origin}/llms-full.txt>. Each document starts with its title and source URL.\n`;
      parts.push({ name: partName, body: [partHeader, ...chunk].join("\n---\n\n") });
      index.push(`- [${llmsLinkName(label)}](${ctx.origin}${llmsFullPartPath(partName)}): ${chunk.length} document${chunk.length === 1 ? "" : "s"}`);
    });
  }
  const body =
    `# ${name}\n\n${quote}\n\nAll public content of ${name} (${docs.length} documents) is larger than one document of ` +
    `${budget.toLocaleString("en-US")} characters, so it is split into ${parts.length} parts by section. Each part holds whole ` +
    `documents, each starting with its title and source URL.\n\n## Parts\n\n${index.join("\n")}\n`;
  return { body, parts, changesAt };
}
