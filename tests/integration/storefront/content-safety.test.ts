// Stored text is hostile input: arbitrary strings in every stored text field of every kind never
// change a markdown twin's structure (one H1, the same headings, no raw HTML, no script-capable
// URL), and llms.txt stays readable by the llmstxt.org reference rules. Seeded fast-check runs
// through HTTP, on PGlite and Postgres.
import fc from "fast-check";
import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { safeHref } from "@/lib/storefront/safe-url";
import { appForSuite } from "../../helpers/app-for-suite";
import { DEMO_HOST, ORIGIN, parseMarkdown } from "./helpers";
import { parseLlmsTxtReference } from "./llms-reference";

const server = appForSuite({ host: DEMO_HOST });
const schoolId = DEMO_IDS.school;

const HOSTILE = [
  "Summary line\n\n# Injected H1",
  "[x](javascript:alert(1))",
  "<script>alert(1)</script>",
  "Data Viz [Beta]",
  "a](x)b",
  "Title](http://evil.test)",
  "---",
  "\n---\ntype: evil\n---\n",
  "1. list",
  "> quote",
  "```",
  "<!--",
  "*emphasis*",
  '<img src=x onerror="alert(1)">',
  "&lt;script&gt;",
  "Title #",
  "| a | b |\n|---|---|",
  "===",
  "  # x",
  "<javascript:alert(1)>",
  "![i](data:text/html,x)",
  "\\",
  "   ",
];
const markdownish = fc.string({
  unit: fc.constantFrom(..."#>-*_`~[]()!<>:/=\\&;|\n \tajs1.\"'", "javascript:", "<script>", "```", "](", "\n\n", "# ", "&#91;"),
  maxLength: 60,
});
// Postgres text cannot hold NUL; everything else is fair.
const hostileText = fc.oneof(fc.constantFrom(...HOSTILE), markdownish, fc.string({ unit: "grapheme", maxLength: 30 })).map((s) => s.replace(/\u0000/g, ""));

async function twin(path: string): Promise<{ data: Record<string, unknown>; tree: Root; body: string }> {
  const res = await server.fetch(path);
  expect(res.status, path).toBe(200);
  const { data, body } = parseMarkdown(await res.text());
  return { data, tree: fromMarkdown(body), body };
}

function walk(tree: Root): Nodes[] {
  const out: Nodes[] = [];
  const visit = (n: Nodes) => {
    out.push(n);
    if ("children" in n) n.children.forEach((c) => visit(c as Nodes));
  };
  visit(tree);
  return out;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** The headings of a document, "depth text", with the H1's text replaced by a marker. */
const headings = (tree: Root) => walk(tree).flatMap((n) => (n.type === "heading" ? [n.depth === 1 ? "1 <title>" : `${n.depth} ${toString(n)}`] : []));

function expectInert(tree: Root, title: string) {
  const nodes = walk(tree);
  for (const n of nodes) {
    expect(n.type).not.toBe("html");
    if (n.type === "link" || n.type === "image" || n.type === "definition") expect(safeHref(n.url), n.url).not.toBeNull();
  }
  const h1 = nodes.filter((n) => n.type === "heading" && n.depth === 1);
  expect(h1).toHaveLength(1);
  expect(toString(h1[0]!)).toBe(oneLine(title));
  // The H1 comes first.
  expect(tree.children[0]?.type).toBe("heading");
}

interface Case {
  name: string;
  path: string;
  /** Writes the generated strings into the row's plain-text fields; returns the document title. */
  write(t: string[]): Promise<string>;
  restore(): Promise<void>;
}

function rowCase<T>(name: string, path: string, read: () => Promise<T>, update: (data: Record<string, string | null>) => Promise<unknown>, fields: (t: string[]) => { data: Record<string, string | null>; title: string }): Case {
  let original: T;
  return {
    name,
    path,
    async write(t) {
      original ??= await read();
      const { data, title } = fields(t);
      await update(data);
      return title;
    },
    async restore() {
      if (original) await update(Object.fromEntries(Object.keys(fields(["", "", "", "", "", ""]).data).map((k) => [k, (original as Record<string, string | null>)[k] ?? null])));
    },
  };
}

const bySlug = (slug: string) => ({ where: { schoolId_slug: { schoolId, slug } } });
const FAQ_PATH = "/api/md/faq";

const PLAIN_TEXT_CASES: Case[] = [
  rowCase("course", "/api/md/courses/intro-to-sql", () => db().course.findUniqueOrThrow(bySlug("intro-to-sql")), (data) => db().course.update({ ...bySlug("intro-to-sql"), data }), (t) => ({
    data: { title: t[0]!, summary: t[1]!, level: t[2]! },
    title: t[0]!,
  })),
  rowCase("post", "/api/md/posts/five-sql-mistakes", () => db().post.findUniqueOrThrow(bySlug("five-sql-mistakes")), (data) => db().post.update({ ...bySlug("five-sql-mistakes"), data }), (t) => ({
    data: { title: t[0]!, excerpt: t[1]! },
    title: t[0]!,
  })),
  rowCase("event", "/api/md/events/sql-office-hours-december", () => db().event.findUniqueOrThrow(bySlug("sql-office-hours-december")), (data) => db().event.update({ ...bySlug("sql-office-hours-december"), data }), (t) => ({
    data: { title: t[0]!, summary: t[1]!, location: t[2]!, onlineUrl: t[3]! },
    title: t[0]!,
  })),
  rowCase("download", "/api/md/digital-downloads/lightroom-presets", () => db().digitalDownload.findUniqueOrThrow(bySlug("lightroom-presets")), (data) => db().digitalDownload.update({ ...bySlug("lightroom-presets"), data }), (t) => ({
    data: { title: t[0]!, summary: t[1]!, fileName: t[2]! },
    title: t[0]!,
  })),
  rowCase("plan", "/api/md/plans/monthly", () => db().membershipPlan.findUniqueOrThrow(bySlug("monthly")), (data) => db().membershipPlan.update({ ...bySlug("monthly"), data }), (t) => ({
    data: { name: t[0]!, description: t[1]! },
    title: t[0]!,
  })),
  rowCase("category", "/api/md/categories/data", () => db().category.findUniqueOrThrow(bySlug("data")), (data) => db().category.update({ ...bySlug("data"), data }), (t) => ({
    data: { name: t[0]!, description: t[1]! },
    title: t[0]!,
  })),
  rowCase("lecturer", "/api/md/lecturers/tomas-rivera", () => db().lecturer.findUniqueOrThrow(bySlug("tomas-rivera")), (data) => db().lecturer.update({ ...bySlug("tomas-rivera"), data }), (t) => ({
    data: { name: t[0]!, headline: t[1]!, avatarUrl: t[2]! },
    title: t[0]!,
  })),
  rowCase("home page", "/api/md/home", () => db().homePage.findUniqueOrThrow({ where: { schoolId } }), (data) => db().homePage.update({ where: { schoolId }, data }), (t) => ({
    data: { title: t[0]!, tagline: t[1]! },
    title: t[0]!,
  })),
];

describe("plain-text fields never change a twin's structure", () => {
  it.each(PLAIN_TEXT_CASES)("$name: one H1 with the title as text, the same headings, nothing live", async (c) => {
    const baseline = headings((await twin(c.path)).tree);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileText, { minLength: 6, maxLength: 6 }), async (t) => {
          const title = await c.write(t);
          const { data, tree } = await twin(c.path);
          expect(data.title).toBe(title);
          expectInert(tree, title);
          expect(headings(tree)).toEqual(baseline);
        }),
        { seed: 18, numRuns: 40 },
      );
    } finally {
      await c.restore();
    }
  });

  it("lists on other pages and the school's own name and description stay one line each", async () => {
    const school = await db().school.findUniqueOrThrow({ where: { id: schoolId } });
    const baseline = headings((await twin("/api/md/courses")).tree);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileText, { minLength: 4, maxLength: 4 }), async (t) => {
          await db().school.update({ where: { id: schoolId }, data: { name: t[0]!, description: t[1]! } });
          await db().course.update({ ...bySlug("python-for-data-analysis"), data: { title: t[2]!, summary: t[3]! } });
          const { tree } = await twin("/api/md/courses");
          expectInert(tree, "Courses");
          expect(headings(tree)).toEqual(baseline);
          const items = walk(tree).filter((n) => n.type === "listItem");
          expect(items.length).toBe((await db().course.count({ where: { schoolId, status: "published" } })));
        }),
        { seed: 18, numRuns: 30 },
      );
    } finally {
      await db().school.update({ where: { id: schoolId }, data: { name: school.name, description: school.description } });
      await seedDemo({ prisma: db() });
    }
  });

  it("an FAQ question is one H2 with its text, whatever it holds", async () => {
    const entry = await db().faqEntry.findFirstOrThrow({ where: { schoolId, status: "published" }, orderBy: { position: "asc" } });
    const count = (await headings((await twin(FAQ_PATH)).tree)).length;
    try {
      await fc.assert(
        fc.asyncProperty(hostileText, async (question) => {
          await db().faqEntry.update({ where: { id: entry.id }, data: { question } });
          const { tree } = await twin(FAQ_PATH);
          expectInert(tree, "Frequently asked questions");
          const h = headings(tree);
          expect(h).toHaveLength(count);
          expect(h[1]).toBe(`2 ${oneLine(question)}`);
        }),
        { seed: 18, numRuns: 40 },
      );
    } finally {
      await db().faqEntry.update({ where: { id: entry.id }, data: { question: entry.question } });
    }
  });
});

describe("school-written bodies keep their markdown but nothing live", () => {
  it("a lecturer bio: one H1, no HTML, safe URLs, and the lists after it keep their headings", async () => {
    const lecturer = await db().lecturer.findUniqueOrThrow(bySlug("tomas-rivera"));
    const sections = headings((await twin("/api/md/lecturers/tomas-rivera")).tree).slice(-2);
    expect(sections).toEqual(["2 Courses", "2 Posts"]);
    try {
      await fc.assert(
        fc.asyncProperty(fc.oneof(markdownish, fc.constantFrom(...HOSTILE)), async (bio) => {
          await db().lecturer.update({ ...bySlug("tomas-rivera"), data: { bio: bio.replace(/\u0000/g, "") } });
          const { tree } = await twin("/api/md/lecturers/tomas-rivera");
          expectInert(tree, lecturer.name);
          expect(headings(tree).slice(-2)).toEqual(sections);
        }),
        { seed: 18, numRuns: 60 },
      );
    } finally {
      await db().lecturer.update({ ...bySlug("tomas-rivera"), data: { bio: lecturer.bio } });
    }
  });

  it("an FAQ answer cannot swallow the next question", async () => {
    const entry = await db().faqEntry.findFirstOrThrow({ where: { schoolId, status: "published" }, orderBy: { position: "asc" } });
    const baseline = headings((await twin(FAQ_PATH)).tree);
    try {
      for (const answer of ["```\nopen fence", "<!-- open comment", "<div>\nraw", "# Answer H1", "~~~"]) {
        await db().faqEntry.update({ where: { id: entry.id }, data: { answer } });
        const { tree } = await twin(FAQ_PATH);
        expectInert(tree, "Frequently asked questions");
        const h = headings(tree);
        expect(h.filter((x) => x.startsWith("2 ") && baseline.includes(x))).toEqual(baseline.filter((x) => x.startsWith("2 ")));
      }
    } finally {
      await db().faqEntry.update({ where: { id: entry.id }, data: { answer: entry.answer } });
    }
  });
});

describe("URLs from stored content", () => {
  it("an event's online URL that is not absolute http(s) is left out of the twin", async () => {
    const event = await db().event.findUniqueOrThrow(bySlug("sql-office-hours-december"));
    try {
      for (const onlineUrl of ["data:text/html,<script>alert(1)</script>", "javascript:alert(1)", " java\tscript:x", "//evil.test/x", "/relative", "mailto:a@b.test", "https://meet.test/a b"]) {
        await db().event.update({ ...bySlug("sql-office-hours-december"), data: { onlineUrl } });
        const { data, body } = await twin("/api/md/events/sql-office-hours-december");
        expect(data.online_url, onlineUrl).toBeNull();
        expect(body).not.toContain("**Online:**");
        expect(body).not.toMatch(/javascript|data:/i);
      }
      await db().event.update({ ...bySlug("sql-office-hours-december"), data: { onlineUrl: "https://meet.test/room(1)?a=<b>" } });
      const { data, body } = await twin("/api/md/events/sql-office-hours-december");
      expect(data.online_url).toBe("https://meet.test/room(1)?a=%3Cb%3E");
      expect(body).toContain("- **Online:** [https://meet.test/room(1)?a=%3Cb%3E](<https://meet.test/room(1)?a=%3Cb%3E>)");
    } finally {
      await db().event.update({ ...bySlug("sql-office-hours-december"), data: { onlineUrl: event.onlineUrl } });
    }
  });

  it("a relative course image becomes absolute on the school's origin; a script URL is dropped", async () => {
    try {
      await db().course.update({ ...bySlug("intro-to-sql"), data: { imageUrl: "/images/sql.png" } });
      let { data, body } = await twin("/api/md/courses/intro-to-sql");
      expect(data.image_url).toBe(`${ORIGIN}/images/sql.png`);
      expect(body).toContain(`![Intro to SQL](${ORIGIN}/images/sql.png)`);
      await db().course.update({ ...bySlug("intro-to-sql"), data: { imageUrl: "javascript:alert(1)" } });
      ({ data, body } = await twin("/api/md/courses/intro-to-sql"));
      expect(data.image_url).toBeNull();
      expect(body).not.toContain("javascript");
    } finally {
      await db().course.update({ ...bySlug("intro-to-sql"), data: { imageUrl: null } });
    }
  });
});

describe("llms.txt for any title", () => {
  it("the llmstxt.org reference rules read every link with its own URL", async () => {
    const slugs = ["intro-to-sql", "python-for-data-analysis"];
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileText, { minLength: 4, maxLength: 4 }), async (t) => {
          await db().course.update({ ...bySlug(slugs[0]!), data: { title: t[0]!, summary: t[1]! } });
          await db().course.update({ ...bySlug(slugs[1]!), data: { title: t[2]!, summary: t[3]! } });
          const text = await (await server.fetch("/llms.txt")).text();
          const parsed = parseLlmsTxtReference(text);
          const courses = parsed.sections["Courses"]!;
          for (const slug of slugs) expect(courses.map((l) => l.url)).toContain(`${ORIGIN}/api/md/courses/${slug}`);
          const all = Object.values(parsed.sections).flat();
          expect(all.length).toBe(text.split("\n").filter((l) => l.startsWith("- [")).length);
          for (const l of all) expect(l.url).toMatch(/^http:\/\/localhost:3000\/[^\s)]*$/);
        }),
        { seed: 18, numRuns: 40 },
      );
    } finally {
      await seedDemo({ prisma: db() });
    }
  });
});
