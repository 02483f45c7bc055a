// Every markdown document the storefront serves for the demo schools passes markdownlint with the
// rule set below (docs/decisions.md, "markdownlint on every served document"): the /api/md/* twins, found by following every
// markdown link from llms.txt, llms.txt itself, llms-full.txt and a markdown error document.
import { describe, expect, it } from "vitest";
import { lint } from "markdownlint/promise";
import type { Configuration } from "markdownlint";
import { appForSuite } from "../../helpers/app-for-suite";
import { ACME_HOST, DEMO_HOST } from "./helpers";

/**
 * Rules for generated documents: everything on except what cannot apply to text the storefront
 * writes from stored fields.
 */
export const GENERATED_MARKDOWN_RULES: Configuration = {
  default: true,
  // Line length: paragraphs are school-written fields of any length; wrapping them would change them.
  MD013: false,
  // The frontmatter `title` is metadata for parsers; the document's one title is the body's H1,
  // which MD025 (one H1) and MD041 (starts with the H1) check.
  MD025: { front_matter_title: "" },
  MD041: { front_matter_title: "" },
  // An index page's list is headed like the page ("# Courses" then "## Courses"); only headings
  // under the same parent must differ.
  MD024: { siblings_only: true },
};

const server = appForSuite({ host: DEMO_HOST });

async function get(path: string, host: string): Promise<string> {
  const res = await server.fetch(path, { headers: { host } });
  expect(res.status, `${host}${path}`).toBe(200);
  return res.text();
}

/** Every /api/md/* path linked from the school's llms.txt and from the documents it reaches. */
async function documents(host: string): Promise<Map<string, string>> {
  const docs = new Map<string, string>();
  docs.set("/llms.txt", await get("/llms.txt", host));
  docs.set("/llms-full.txt", await get("/llms-full.txt", host));
  const queue = [...docs.values()];
  while (queue.length) {
    const text = queue.shift()!;
    for (const m of text.matchAll(/https?:\/\/[^/\s)]+(\/api\/md\/[^\s)"'>]*)/g)) {
      const path = m[1]!;
      if (docs.has(path)) continue;
      const body = await get(path, host);
      docs.set(path, body);
      queue.push(body);
    }
  }
  return docs;
}

/**
 * llms-full.txt (and its parts) is whole documents one after another, each keeping its own H1 so an
 * agent can split it: one H1 per file does not apply there, and two documents (or the file's own
 * header and the home page) may share a title.
 */
export const LLMS_FULL_RULES: Configuration = { ...GENERATED_MARKDOWN_RULES, MD025: false, MD024: false };

async function lintAll(docs: Map<string, string>): Promise<string[]> {
  const results: Record<string, Awaited<ReturnType<typeof lint>>[string]> = {};
  const frontMatter = /^---\n[\s\S]*?\n---(?:\n|$)/;
  for (const [name, text] of docs) {
    const config = name.startsWith("/llms-full") ? LLMS_FULL_RULES : GENERATED_MARKDOWN_RULES;
    Object.assign(results, await lint({ strings: { [name]: text }, config, frontMatter }));
  }
  return Object.entries(results).flatMap(([name, errors]) =>
    errors.map((e) => `${name}:${e.lineNumber} ${e.ruleNames.join("/")} ${e.ruleDescription}${e.errorDetail ? ` [${e.errorDetail}]` : ""}${e.errorContext ? ` «${e.errorContext}»` : ""}`),
  );
}

describe("markdownlint accepts every markdown document of the demo schools", () => {
  it.each([DEMO_HOST, ACME_HOST])("%s", async (host) => {
    const docs = await documents(host);
    // The crawl reached the twins (home, courses, posts, ...), not only the llms files.
    expect([...docs.keys()].filter((p) => p.startsWith("/api/md/")).length).toBeGreaterThan(host === DEMO_HOST ? 15 : 3);
    const res = await server.fetch("/api/md/courses/no-such-course", { headers: { host } });
    expect(res.status).toBe(404);
    docs.set("/api/md/courses/no-such-course (404)", await res.text());
    expect(await lintAll(docs)).toEqual([]);
  });

  it("the rule set is not vacuous: it rejects a twin with two H1s and a skipped heading level", async () => {
    const bad = await lintAll(new Map([["bad.md", "---\ntitle: x\n---\n# A\n\n# B\n\n### C\n"]]));
    expect(bad.some((e) => e.includes("MD025"))).toBe(true);
    expect(bad.some((e) => e.includes("MD001"))).toBe(true);
  });
});
