// Content-Signal from the school's setting, robots.txt and sitemap.xml, through HTTP.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { appForSuite } from "../../helpers/app-for-suite";
import { ACME_HOST, DEMO_HOST, DEMO_MARKDOWN_PATHS, ORIGIN, SECRET, parseMarkdown, seedUnpublished } from "./helpers";


const server = appForSuite({ host: DEMO_HOST, prepare: seedUnpublished });

const setSignals = async (data: { contentSignalSearch?: boolean; contentSignalAiInput?: boolean; contentSignalAiTrain?: boolean }) => {
  await db().school.update({ where: { id: DEMO_IDS.school }, data });
  clearSchoolCache();
};

describe("Content-Signal", () => {
  afterAll(() => setSignals({ contentSignalSearch: true, contentSignalAiInput: true, contentSignalAiTrain: false }));

  it("defaults to search and AI input allowed, AI training not, on every markdown and llms response", async () => {
    for (const path of [...DEMO_MARKDOWN_PATHS.map((p) => p.path), "/llms.txt", "/llms-full.txt", "/robots.txt"]) {
      const res = await server.fetch(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-signal"), path).toBe("search=yes, ai-input=yes, ai-train=no");
    }
  });

  it("follows the school's setting", async () => {
    await setSignals({ contentSignalSearch: false, contentSignalAiInput: false, contentSignalAiTrain: true });
    for (const path of ["/api/md/courses/intro-to-sql", "/llms.txt", "/robots.txt"]) {
      expect((await server.fetch(path)).headers.get("content-signal"), path).toBe("search=no, ai-input=no, ai-train=yes");
    }
    expect(await (await server.fetch("/robots.txt")).text()).toContain("Content-Signal: search=no, ai-input=no, ai-train=yes\nDisallow: /\n");
  });
});

describe("/robots.txt", () => {
  it("states the signal, keeps crawlers out of sign-in and APIs, refuses training crawlers and names the sitemap", async () => {
    const res = await server.fetch("/robots.txt");
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    expect(text).toContain("User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n");
    expect(text).toContain("Disallow: /login\n");
    expect(text).toMatch(/User-agent: GPTBot\n[\s\S]*?Disallow: \/\n/);
    expect(text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it("an enterprise-training school disallows everything and offers no sitemap", async () => {
    const text = await (await server.fetch("/robots.txt", { headers: { host: ACME_HOST } })).text();
    expect(text).toContain("User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nDisallow: /\n");
    expect(text).not.toContain("Sitemap:");
  });

  it("an unknown school is a 404", async () => {
    expect((await server.fetch("/robots.txt", { headers: { host: "no-such-school.localhost" } })).status).toBe(404);
  });
});

describe("/sitemap.xml", () => {
  it("lists the HTML URL of every public document once, with its last change, and nothing unpublished", async () => {
    const res = await server.fetch("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("etag")).toBeTruthy();
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    expect(xml).not.toContain(SECRET);
    const entries = [...xml.matchAll(/<url>\s*<loc>([^<]+)<\/loc>\s*<lastmod>([^<]+)<\/lastmod>\s*<\/url>/g)].map((m) => ({ loc: m[1]!, lastmod: m[2]! }));
    const llms = await (await server.fetch("/llms.txt")).text();
    const twins = [...llms.matchAll(/\]\((http:\/\/[^)]+\/api\/md\/[^)]+)\)/g)].map((m) => m[1]!);
    expect(entries).toHaveLength(twins.length);
    for (const twin of twins) {
      const { data } = parseMarkdown(await (await server.fetch(new URL(twin).pathname)).text());
      expect(entries, twin).toContainEqual({ loc: data.url, lastmod: data.updated });
    }
  });

  it("is empty for an enterprise-training school", async () => {
    const xml = await (await server.fetch("/sitemap.xml", { headers: { host: ACME_HOST } })).text();
    expect(xml).not.toContain("<url>");
    expect(xml).toContain("</urlset>");
  });
});
