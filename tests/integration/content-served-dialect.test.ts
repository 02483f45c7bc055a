// Issue 29 item 16: one vocabulary for content files and the markdown the storefront serves. Every
// kind of page /api/md/* serves for an item (home, FAQ, course, post, event, download, plan,
// category, lecturer) is saved as a content file unchanged, imported into another school, and that
// school then serves the same markdown (only its address and the `updated` stamps differ).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "@/lib/content/errors";
import { importContent } from "@/lib/content/import-content";
import { KIND_DIRS, type ItemKind } from "@/lib/content/read-folder";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { createSchool } from "@/lib/schools/create-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { TEST_ACTOR } from "../helpers/audit-actor";

let demo: AppServer;
let copy: AppServer;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "served-dialect-"));
  await seedDemo({ prisma: db() });
  await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "copy", name: "Copy", ownerEmail: "owner@copy.example", now: new Date() });
  demo = await startAppServer({ host: "demo.localhost" });
  copy = await startAppServer({ host: "copy.localhost" });
});
afterAll(async () => {
  await Promise.all([demo.close(), copy.close()]);
  await rm(tmp, { recursive: true, force: true });
});

async function md(server: AppServer, p: string): Promise<string | null> {
  const res = await server.fetch(p, { headers: { accept: "text/markdown" } });
  if (res.status === 404) return null;
  expect(res.status, p).toBe(200);
  return res.text();
}

/** The markdown path of every item kind's pages, by the folder its files live in. */
const PAGES: Record<ItemKind, string> = {
  categories: "categories", lecturers: "lecturers", courses: "courses", posts: "posts", events: "events",
  downloads: "digital-downloads", plans: "plans",
};

/**
 * What may differ between the two schools' pages: the address, the change stamps, the school's
 * name, and the order of link lists (an item's `position` is not on its page, so a copied page
 * sorts by title among equals). A copied page's images stay where the page names them (the
 * original school's /media/ address): the bytes are not in the page.
 */
function comparable(text: string, host: string, name: string): string {
  const lines = text.replace(/http:\/\/[a-z]+\.localhost\/media\//g, "MEDIA/").replaceAll(`http://${host}`, "ORIGIN").replaceAll(name, "SCHOOL").replace(/^updated: .*$/m, "updated: X").split("\n");
  const out: string[] = [];
  let list: string[] = [];
  for (const line of [...lines, ""]) {
    if (line.startsWith("- [")) list.push(line);
    else {
      out.push(...list.sort(), line);
      list = [];
    }
  }
  return out.join("\n");
}

describe("a page served at /api/md/* is a content file", () => {
  it("imports every kind of served page as it is, and the copy serves the same markdown", async () => {
    const demoSchool = await db().school.findUniqueOrThrow({ where: { subdomain: "demo" } });
    const pages: Array<{ file: string; path: string; text: string }> = [];
    for (const [file, p] of [["home.md", "/api/md/home"], ["faq.md", "/api/md/faq"]] as const) {
      pages.push({ file, path: p, text: (await md(demo, p))! });
    }
    for (const kind of Object.keys(PAGES) as ItemKind[]) {
      const delegate = { categories: db().category, lecturers: db().lecturer, courses: db().course, posts: db().post, events: db().event,
        downloads: db().digitalDownload, plans: db().membershipPlan }[kind] as unknown as { findMany(a: unknown): Promise<Array<{ slug: string }>> };
      for (const { slug } of await delegate.findMany({ where: { schoolId: demoSchool.id, status: "published" }, select: { slug: true } })) {
        const p = `/api/md/${PAGES[kind]}/${slug}`;
        const text = await md(demo, p);
        if (text !== null) pages.push({ file: `${KIND_DIRS[kind].dir}/${slug}.md`, path: p, text });
      }
    }
    // Every kind of item page is in the round trip.
    expect(new Set(pages.map((p) => p.file.split("/")[0]))).toEqual(new Set(["home.md", "faq.md", ...Object.values(KIND_DIRS).map((k) => k.dir)]));

    const dir = path.join(tmp, "copied-pages");
    for (const page of pages) {
      await mkdir(path.dirname(path.join(dir, page.file)), { recursive: true });
      await writeFile(path.join(dir, page.file), page.text);
    }
    await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "copy", dir });

    for (const page of pages) {
      const again = await md(copy, page.path);
      expect(again, page.path).not.toBeNull();
      expect(comparable(again!, "copy.localhost", "Copy"), page.path).toBe(comparable(page.text, "demo.localhost", demoSchool.name));
    }
  });

  it("says which file and key are wrong when a copied page does not fit where it was put", async () => {
    const dir = path.join(tmp, "misplaced");
    await mkdir(path.join(dir, "plans"), { recursive: true });
    const course = (await md(demo, "/api/md/courses/intro-to-sql"))!;
    await writeFile(path.join(dir, "plans", "intro-to-sql.md"), course);
    const err = await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "copy", dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as ContentError).problems[0]).toMatchObject({ file: "plans/intro-to-sql.md", line: 2, field: "type" });
  });

  it("accepts the served names in a hand-written file, and refuses two names that disagree", async () => {
    const dir = path.join(tmp, "mixed");
    await mkdir(path.join(dir, "plans"), { recursive: true });
    await writeFile(path.join(dir, "plans", "quarterly.md"), "---\ntitle: Quarterly\nplan_type: recurring\ninterval: month\ninterval_count: 3\nprice: 90\ncurrency: USD\n---\n\nThree months at a time.\n");
    const { changes } = await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "copy", dir, dryRun: true });
    expect(changes).toContainEqual(expect.objectContaining({ kind: "plans", key: "quarterly", action: "create" }));

    await writeFile(path.join(dir, "plans", "quarterly.md"), "---\nname: Quarterly\ntitle: Three-monthly\nplanType: recurring\ninterval: month\nprice: 90\ncurrency: USD\n---\n");
    const err = await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "copy", dir, dryRun: true }).catch((e: unknown) => e);
    expect((err as ContentError).problems).toEqual([expect.objectContaining({ file: "plans/quarterly.md", line: 3, field: "title" })]);
  });
});
