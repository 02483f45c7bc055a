import type { APIRequestContext } from "@playwright/test";
import { parse } from "yaml";

export function parseMarkdown(text: string): { data: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`no frontmatter in:\n${text.slice(0, 200)}`);
  return { data: parse(m[1]!, { version: "1.1" }) as Record<string, unknown>, body: m[2]! };
}

export async function markdownOf(request: APIRequestContext, path: string) {
  const res = await request.get(path);
  if (res.status() !== 200) throw new Error(`${path}: ${res.status()}`);
  return parseMarkdown(await res.text());
}

/** One published page per storefront route with its markdown twin. */
export const PAGES = [
  { html: "/", md: "/api/md/home", jsonLd: "WebSite" },
  { html: "/faq", md: "/api/md/faq", jsonLd: "FAQPage" },
  { html: "/courses", md: "/api/md/courses", jsonLd: "CollectionPage" },
  { html: "/courses/intro-to-sql", md: "/api/md/courses/intro-to-sql", jsonLd: "Course" },
  { html: "/posts/five-sql-mistakes", md: "/api/md/posts/five-sql-mistakes", jsonLd: "BlogPosting" },
  { html: "/events/studio-lighting-workshop", md: "/api/md/events/studio-lighting-workshop", jsonLd: "Event" },
  { html: "/digital-downloads/lightroom-presets", md: "/api/md/digital-downloads/lightroom-presets", jsonLd: "Product" },
  { html: "/plans/monthly", md: "/api/md/plans/monthly", jsonLd: "Product" },
  { html: "/categories/data", md: "/api/md/categories/data", jsonLd: "CollectionPage" },
  { html: "/lecturers", md: "/api/md/lecturers", jsonLd: "CollectionPage" },
  { html: "/lecturers/tomas-rivera", md: "/api/md/lecturers/tomas-rivera", jsonLd: "Person" },
];
