import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { ACME_HOST, DEMO_HOST, ORIGIN, SECRET, parseMarkdown, seedUnpublished } from "./helpers";
import { parseLlmsTxtReference } from "./llms-reference";
import { LLMS_FULL_BUDGET } from "@/lib/storefront/llms";


const server = appForSuite({ host: DEMO_HOST, prepare: seedUnpublished });

interface LlmsTxt {
  title: string;
  summary: string;
  details: string[];
  sections: Array<{ name: string; links: Array<{ name: string; url: string; note: string }> }>;
}

const LINK = /^- \[((?:[^\]\\]|\\.)+)\]\((\S+)\)(?:: (\S.*))?$/;

/** A strict llms.txt parser (llmstxt.org): throws on anything the format does not allow. */
function parseLlmsTxt(text: string): LlmsTxt {
  const lines = text.split("\n");
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i]!.trim() === "") i++;
  };
  const h1 = /^# (\S.*)$/.exec(lines[i++] ?? "");
  if (!h1) throw new Error("first line must be the H1");
  skipBlank();
  const quote = /^> (\S.*)$/.exec(lines[i++] ?? "");
  if (!quote) throw new Error("the H1 must be followed by a blockquote summary");
  const details: string[] = [];
  const sections: LlmsTxt["sections"] = [];
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    if (/^# /.test(line)) throw new Error(`second H1: ${line}`);
    const h2 = /^## (\S.*)$/.exec(line);
    if (h2) {
      sections.push({ name: h2[1]!, links: [] });
      continue;
    }
    if (/^#{3,} /.test(line)) throw new Error(`unexpected heading level: ${line}`);
    if (!sections.length) {
      details.push(line);
      continue;
    }
    const link = LINK.exec(line);
    if (!link) throw new Error(`not a "- [name](url): note" line in ${sections.at(-1)!.name}: ${line}`);
    sections.at(-1)!.links.push({ name: link[1]!, url: link[2]!, note: link[3] ?? "" });
  }
  const optional = sections.findIndex((s) => s.name === "Optional");
  if (optional !== -1 && optional !== sections.length - 1) throw new Error("Optional must be the last section");
  return { title: h1[1]!, summary: quote[1]!, details, sections };
}

/** Fetches an absolute URL of the demo origin through the test server, keeping its Host. */
const fetchAbsolute = (url: string, init: RequestInit = {}) => {
  const u = new URL(url);
  return server.fetch(u.pathname + u.search, { ...init, headers: { host: u.host, ...(init.headers as Record<string, string>) } });
};

describe("/llms.txt", () => {
  let text: string;
  let llms: LlmsTxt;
  beforeAll(async () => {
    const res = await server.fetch("/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("etag")).toBeTruthy();
    text = await res.text();
    llms = parseLlmsTxt(text);
  });

  it("follows llmstxt.org: one H1 with the school name, a blockquote, H2 sections of link lines, Optional last", () => {
    expect(llms.title).toBe("Schoolhouse Demo Academy");
    expect(llms.summary).toBe("Practical courses in data, writing and photography, taught by working professionals.");
    expect(llms.sections.map((s) => s.name)).toEqual([
      "Pages",
      "Courses",
      "Membership plans",
      "Events",
      "Posts",
      "Digital downloads",
      "Categories",
      "Lecturers",
      "Developers and agents",
      "Optional",
    ]);
    for (const s of llms.sections) {
      expect(s.links.length, s.name).toBeGreaterThan(0);
      for (const l of s.links) expect(l.url, l.url).toMatch(/^https?:\/\/[^/]+\//);
    }
  });

  it("links the markdown of every public item and nothing unpublished", async () => {
    const urls = new Set(llms.sections.flatMap((s) => s.links.map((l) => l.url)));
    const schoolId = DEMO_IDS.school;
    const published = { schoolId, status: "published" as const };
    const expected = [
      ...(await db().course.findMany({ where: published })).map((r) => `/api/md/courses/${r.slug}`),
      ...(await db().post.findMany({ where: published })).map((r) => `/api/md/posts/${r.slug}`),
      ...(await db().event.findMany({ where: published })).map((r) => `/api/md/events/${r.slug}`),
      ...(await db().digitalDownload.findMany({ where: published })).map((r) => `/api/md/digital-downloads/${r.slug}`),
      ...(await db().membershipPlan.findMany({ where: published })).map((r) => `/api/md/plans/${r.slug}`),
      ...(await db().category.findMany({ where: published })).map((r) => `/api/md/categories/${r.slug}`),
      ...(await db().lecturer.findMany({ where: published })).map((r) => `/api/md/lecturers/${r.slug}`),
      "/api/md/home",
      "/api/md/faq",
      "/api/md/courses",
      "/api/md/lecturers",
    ].map((p) => ORIGIN + p);
    expect(expected.length).toBeGreaterThan(25);
    for (const url of expected) expect(urls.has(url), url).toBe(true);
    const mdLinks = [...urls].filter((u) => u.includes("/api/md/"));
    expect(mdLinks.sort()).toEqual([...new Set(expected)].sort());
    expect(text).not.toContain(SECRET);
  });

  it("links the developer and agent resources", () => {
    const dev = llms.sections.find((s) => s.name === "Developers and agents")!.links.map((l) => l.url);
    expect(dev).toEqual([
      `${ORIGIN}/openapi.json`,
      `${ORIGIN}/.well-known/oauth-authorization-server`,
      `${ORIGIN}/.well-known/oauth-protected-resource/mcp`,
      `${ORIGIN}/.well-known/mcp/server-card.json`,
      `${ORIGIN}/admin/graphql/schema.graphql`,
    ]);
    // The MCP link is its resource metadata (a 200 for every reader); the note names the endpoint.
    expect(llms.sections.find((s) => s.name === "Developers and agents")!.links[2]!.note).toContain(`${ORIGIN}/mcp`);
    expect(llms.sections.at(-1)!.links.map((l) => l.url)).toEqual([`${ORIGIN}/llms-full.txt`]);
  });

  it.each([
    ["a browser", "text/html,application/xhtml+xml,*/*;q=0.8"],
    ["an agent asking for markdown", "text/markdown, text/plain;q=0.9, */*;q=0.1"],
    ["an agent with no preference", "*/*"],
    ["a client sending no Accept", ""],
  ])("every link answers 200 to %s", async (_who, accept) => {
    const links = llms.sections.flatMap((s) => s.links);
    for (const l of links) {
      const res = await fetchAbsolute(l.url, { headers: accept ? { accept } : {} });
      expect(res.status, l.url).toBe(200);
      await res.arrayBuffer();
    }
  });

  it("links the Admin API's schema as SDL, readable without a key", async () => {
    const res = await server.fetch("/admin/graphql/schema.graphql");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const sdl = await res.text();
    expect(sdl).toMatch(/^type Query \{|\ntype Query \{/);
    expect(sdl).toContain("subscriptions(");
    expect(sdl).toMatch(/type Mutation \{/);
  });

  it("carries x-markdown-tokens, like the twins", async () => {
    for (const path of ["/llms.txt", "/llms-full.txt"]) {
      const res = await server.fetch(path);
      const body = await res.text();
      expect(Number(res.headers.get("x-markdown-tokens")), path).toBe(Math.ceil([...body].length / 4));
    }
  });

  it("writes brackets in link names as character references (the reference parser reads [^\\]]+)", async () => {
    await db().course.update({ where: { schoolId_slug: { schoolId: DEMO_IDS.school, slug: "writing-for-the-web" } }, data: { title: "Writing [for] the Web\nagain" } });
    try {
      const body = await (await server.fetch("/llms.txt")).text();
      expect(body).toContain(`- [Writing &#91;for&#93; the Web again](${ORIGIN}/api/md/courses/writing-for-the-web): `);
      expect(() => parseLlmsTxt(body)).not.toThrow();
    } finally {
      await db().course.update({ where: { schoolId_slug: { schoolId: DEMO_IDS.school, slug: "writing-for-the-web" } }, data: { title: "Writing for the Web" } });
    }
  });

  it("is per school and readable without a session on enterprise-training schools", async () => {
    const res = await server.fetch("/llms.txt", { headers: { host: ACME_HOST } });
    expect(res.status).toBe(200);
    const acme = parseLlmsTxt(await res.text());
    expect(acme.title).toBe("Acme Corp Training");
    const all = acme.sections.flatMap((s) => s.links.map((l) => l.url));
    expect(all).toContain(`http://${ACME_HOST}/api/md/courses/security-awareness`);
    expect(all.some((u) => u.includes("intro-to-sql"))).toBe(false);
  });
});

describe("/llms-full.txt", () => {
  it("holds every public item's markdown, each starting with its title and source URL", async () => {
    const res = await server.fetch("/llms-full.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(Number(res.headers.get("x-markdown-tokens"))).toBeGreaterThan(1000);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    const blocks = text.split("\n---\n\n").slice(1);
    const llms = parseLlmsTxt(await (await server.fetch("/llms.txt")).text());
    const mdUrls = llms.sections.flatMap((s) => s.links.map((l) => l.url)).filter((u) => u.includes("/api/md/"));
    expect(blocks).toHaveLength(mdUrls.length);
    for (const url of mdUrls) {
      const doc = parseMarkdown(await (await fetchAbsolute(url)).text());
      const block = blocks.find((b) => b.includes(`\nMarkdown: <${url}>\n`));
      expect(block, url).toBeDefined();
      const [title, , source] = block!.split("\n");
      expect(title).toBe(`# ${String(doc.data.title).replace(/\s+/g, " ")}`);
      expect(source).toBe(`Source: <${String(doc.data.url)}>`);
      // Same body as the markdown twin (minus its title line).
      expect(block).toContain(doc.body.split("\n").slice(1).join("\n").trim().split("\n")[0]);
    }
  });
});

describe("/llms-full.txt past its budget", () => {
  const extra = Array.from({ length: 40 }, (_, i) => `bulk-course-${i + 1}`);
  beforeAll(async () => {
    const body = "A long lesson plan. ".repeat(160); // ~3,200 characters each
    await db().course.createMany({ data: extra.map((slug, i) => ({ schoolId: DEMO_IDS.school, slug, title: `Bulk course ${i + 1}`, summary: "Bulk", body, position: 100 + i })) });
  });
  afterAll(async () => {
    await db().course.deleteMany({ where: { schoolId: DEMO_IDS.school, slug: { in: extra } } });
  });

  it("becomes an index of parts, each within the budget, holding every document exactly once", async () => {
    const res = await server.fetch("/llms-full.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-markdown-tokens")).toBeTruthy();
    const index = await res.text();
    expect(index.length).toBeLessThanOrEqual(LLMS_FULL_BUDGET);
    const parsed = parseLlmsTxtReference(index);
    const parts = parsed.sections["Parts"]!;
    expect(parts.map((p) => p.title)).toEqual(expect.arrayContaining(["Pages", "Courses, part 1 of 2", "Courses, part 2 of 2", "Lecturers"]));
    const seen: string[] = [];
    for (const part of parts) {
      expect(part.url).toMatch(new RegExp(`^${ORIGIN}/llms-full/[a-z0-9-]+\\.txt$`));
      const r = await fetchAbsolute(part.url);
      expect(r.status, part.url).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(Number(r.headers.get("x-markdown-tokens"))).toBeGreaterThan(0);
      const text = await r.text();
      expect(text.length, part.url).toBeLessThanOrEqual(LLMS_FULL_BUDGET);
      expect(text.startsWith("# ")).toBe(true);
      const blocks = text.split("\n---\n\n").slice(1);
      expect(`${blocks.length} document${blocks.length === 1 ? "" : "s"}`).toBe(part.desc);
      for (const b of blocks) seen.push(/\nMarkdown: <(\S+)>\n/.exec(b)![1]!);
    }
    const llms = parseLlmsTxt(await (await server.fetch("/llms.txt")).text());
    const mdUrls = llms.sections.flatMap((s) => s.links.map((l) => l.url)).filter((u) => u.includes("/api/md/"));
    expect(seen.sort()).toEqual([...mdUrls].sort());
  });

  it("an unknown part is a 404", async () => {
    for (const path of ["/llms-full/nope.txt", "/llms-full/courses-9.txt", "/llms-full/courses", "/llms-full/..%2Fllms.txt"]) {
      expect((await server.fetch(path)).status, path).toBe(404);
    }
  });
});
