// A school's content as a folder of markdown files: import into a school made with createSchool,
// check it through HTTP, then round trips, unpublishing, dry runs and bad folders.
import { cp, mkdtemp, readFile, rm, writeFile, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "@/lib/content/errors";
import { renderContentFolder, exportContent } from "@/lib/content/export-content";
import { importContent } from "@/lib/content/import-content";
import { db } from "@/lib/db/client";
import { DEMO_SCHOOLS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { createSchool, type CreatedSchool } from "@/lib/schools/create-school";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { TEST_ACTOR } from "../helpers/audit-actor";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/pottery-school");
let server: AppServer;
let school: CreatedSchool;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "content-import-"));
  school = await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "pottery", name: "Pottery", ownerEmail: "owner@pottery.example", now: new Date() });
  server = await startAppServer({ host: "pottery.localhost" });
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

/** A copy of the fixture with some files replaced (null deletes the file). */
async function variant(name: string, files: Record<string, string | null> = {}): Promise<string> {
  const dir = path.join(tmp, name);
  await cp(FIXTURE, dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    if (text === null) await unlink(path.join(dir, rel));
    else await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

/** Everything an import could touch, to prove a failed one touched nothing (its audit rows included). */
async function snapshot() {
  const [version, files, audit] = await Promise.all([
    db().contentVersion.findUniqueOrThrow({ where: { id: 1 } }),
    renderContentFolder({ db: db(), schoolId: school.school.id }),
    db().auditEvent.count({ where: { schoolId: school.school.id } }),
  ]);
  return { version: version.version, files: Object.fromEntries(files), audit };
}

const md = async (p: string) => {
  const res = await server.fetch(p, { headers: { accept: "text/markdown" } });
  return { status: res.status, text: await res.text() };
};

describe("import a content folder into a new school", () => {
  it("--dry-run reports every item and writes nothing", async () => {
    const before = await snapshot();
    const { changes } = await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir: FIXTURE, dryRun: true });
    expect(changes.filter((c) => c.action === "create").map((c) => `${c.kind}/${c.key}`).sort()).toEqual(
      [
        "categories/glazing", "categories/throwing", "courses/glaze-chemistry", "courses/wheel-basics", "downloads/glaze-recipes",
        "events/open-studio", "faq/Can I fire pieces made elsewhere?", "faq/Do I need my own wheel?", "lecturers/ana-souza",
        "lecturers/ken-ito", "plans/lifetime", "plans/studio-monthly", "posts/first-firing",
      ].sort(),
    );
    expect(changes).toContainEqual({ kind: "school", key: "pottery", action: "update", fields: ["name", "description", "brandColor", "contactEmail"] });
    expect(await snapshot()).toEqual(before);
  });

  it("imports, and every page, /api/md/*, llms.txt and the Admin API show the content", async () => {
    await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir: FIXTURE });
    const home = await md("/api/md/home");
    expect(home.status).toBe(200);
    expect(home.text).toContain("Make pots that last");
    const course = await md("/api/md/courses/glaze-chemistry");
    expect(course.status).toBe(200);
    expect(course.text).toContain("Glaze Chemistry");
    expect(course.text).toContain("Ken Ito");
    expect(course.text).toContain("149.50");
    for (const p of ["/api/md/courses", "/api/md/courses/wheel-basics", "/api/md/posts/first-firing", "/api/md/events/open-studio",
      "/api/md/digital-downloads/glaze-recipes", "/api/md/plans/studio-monthly", "/api/md/categories/glazing", "/api/md/lecturers/ana-souza",
      "/api/md/lecturers", "/api/md/faq"]) {
      expect((await md(p)).status, p).toBe(200);
    }
    expect((await md("/api/md/faq")).text).toContain("Do I need my own wheel?");
    const llms = await (await server.fetch("/llms.txt")).text();
    expect(llms).toContain("Clay & Kiln");
    expect(llms).toContain("/courses/wheel-basics");
    const admin = await server.fetch("/admin/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": school.apiKey.key },
      body: JSON.stringify({ query: "{ courses { nodes { slug } } membershipPlans { name price } }" }),
    });
    const body = await admin.json();
    expect(body.data.courses.nodes.map((c: { slug: string }) => c.slug)).toEqual(["wheel-basics", "glaze-chemistry"]);
    expect(body.data.membershipPlans.map((p: { name: string }) => p.name).sort()).toEqual(["Lifetime", "Studio Monthly"]);
    const lecturers = await db().courseLecturer.findMany({ where: { course: { slug: "glaze-chemistry", schoolId: school.school.id } }, orderBy: { position: "asc" }, include: { lecturer: true } });
    expect(lecturers.map((l) => l.lecturer.slug)).toEqual(["ken-ito", "ana-souza"]);
  });

  it("a second import of the same folder, and import(export(school)), change nothing", async () => {
    const before = await snapshot();
    expect((await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir: FIXTURE })).changes).toEqual([]);
    const out = path.join(tmp, "exported");
    await exportContent({ db: db(), schoolId: school.school.id, dir: out });
    expect((await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir: out })).changes).toEqual([]);
    expect(await snapshot()).toEqual(before);
    // The export carries ids, so the same folder recreates the same rows in another database.
    expect(await readFile(path.join(out, "courses/wheel-basics.md"), "utf8")).toMatch(/^---\nid: [0-9a-f-]{36}\ntitle: Wheel Basics\n/);
  });

  it("a removed file unpublishes its item (kept for subscriptions), an edited file updates it", async () => {
    const plan = await db().membershipPlan.findFirstOrThrow({ where: { schoolId: school.school.id, slug: "lifetime" } });
    const dir = await variant("removed", {
      "plans/lifetime.md": null,
      "courses/wheel-basics.md": (await readFile(path.join(FIXTURE, "courses/wheel-basics.md"), "utf8")).replace("price: 120", "price: 135"),
    });
    const { changes } = await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir });
    expect(changes).toEqual([
      { kind: "courses", key: "wheel-basics", action: "update", fields: ["price"] },
      { kind: "plans", key: "lifetime", action: "unpublish", fields: ["status"] },
    ]);
    expect((await db().membershipPlan.findUniqueOrThrow({ where: { id: plan.id } })).status).toBe("draft");
    expect((await md("/api/md/plans/lifetime")).status).toBe(404);
    expect((await md("/api/md/courses/wheel-basics")).text).toContain("135.00");
    // Putting the file back publishes the same row again.
    await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir: FIXTURE });
    expect((await db().membershipPlan.findUniqueOrThrow({ where: { id: plan.id } })).status).toBe("published");
  });
});

describe("a bad folder fails with the file, field and line, and changes nothing", () => {
  const course = (frontmatter: string) => `---\n${frontmatter}\n---\n\nBody.\n`;
  const cases: { name: string; files: Record<string, string | null>; expected: string[] }[] = [
    {
      name: "missing-title",
      files: { "courses/wheel-basics.md": course("summary: No title here\nprice: 10\ncurrency: EUR") },
      expected: ["courses/wheel-basics.md:1: title: is required"],
    },
    {
      name: "unknown-lecturer",
      files: { "courses/wheel-basics.md": course("title: Wheel\nlecturers:\n  - ana-souza\n  - nobody-here") },
      expected: ['courses/wheel-basics.md:5: lecturers.1: no lecturer with slug "nobody-here" (lecturers/nobody-here.md)'],
    },
    {
      name: "invalid-yaml",
      files: { "posts/first-firing.md": "---\ntitle: Broken\nexcerpt: [unclosed\nstatus: published\n---\n\nBody\n" },
      expected: ["posts/first-firing.md:4: invalid YAML"],
    },
    {
      name: "price-not-a-number",
      files: { "plans/lifetime.md": "---\nname: Lifetime\nplanType: lifetime\nprice: free\ncurrency: EUR\n---\n\nForever.\n" },
      expected: ["plans/lifetime.md:4: price: must be a number of at most two decimals, e.g. 49 or 49.90"],
    },
    {
      name: "duplicate-slug",
      files: { "courses/Wheel-Basics.md": course("title: Shadow") },
      expected: ['courses/wheel-basics.md:1: slug: duplicate slug "wheel-basics" (also courses/Wheel-Basics.md)'],
    },
    {
      name: "unknown-field",
      files: { "categories/glazing.md": "---\nname: Glazing\npostion: 2\n---\n\nx\n" },
      expected: ["categories/glazing.md:3: postion: is not a known field"],
    },
    {
      name: "school-yaml",
      files: { "school.yaml": "name: Clay\nbrandColor: red\n" },
      expected: ["school.yaml:2: brandColor: must be a colour like #1f6feb"],
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const dir = await variant(c.name, c.files);
      const before = await snapshot();
      const err = await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ContentError);
      const lines = (err as ContentError).message.split("\n").slice(1).map((l) => l.trim());
      for (const expected of c.expected) expect(lines.some((l) => l.startsWith(expected)), `${expected}\n in\n${lines.join("\n")}`).toBe(true);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("reports every problem of a folder at once", async () => {
    const dir = await variant("many", {
      "courses/wheel-basics.md": course("summary: x"),
      "plans/lifetime.md": "---\nname: L\nplanType: lifetime\nprice: lots\ncurrency: EUR\n---\n",
    });
    const err = (await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir }).catch((e: unknown) => e)) as ContentError;
    expect(err.problems.map((p) => `${p.file}:${p.line}:${p.field}`)).toEqual(["courses/wheel-basics.md:1:title", "plans/lifetime.md:4:price"]);
  });

  it("a failure while writing rolls the whole import back (one transaction)", async () => {
    // Two files that swap slugs by id pass validation, then collide on the unique slug while writing.
    const files = await renderContentFolder({ db: db(), schoolId: school.school.id });
    const a = files.get("categories/throwing.md") as string;
    const b = files.get("categories/glazing.md") as string;
    const dir = await variant("swap", {
      "courses/wheel-basics.md": (await readFile(path.join(FIXTURE, "courses/wheel-basics.md"), "utf8")).replace("price: 120", "price: 1"),
      "categories/throwing.md": b,
      "categories/glazing.md": a,
    });
    const before = await snapshot();
    await expect(importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir })).rejects.toThrow();
    expect(await snapshot()).toEqual(before);
  });
});

describe("the demo schools' content folders", () => {
  it("are exactly what an export of the seeded demo writes", async () => {
    await seedDemo({ prisma: db() });
    for (const s of DEMO_SCHOOLS) {
      const files = await renderContentFolder({ db: db(), schoolId: s.id });
      for (const [rel, content] of files) {
        const onDisk = await readFile(path.join(s.contentDir, rel));
        if (typeof content === "string") expect(onDisk.toString("utf8"), `${s.contentDir}/${rel}`).toBe(content);
        else expect(onDisk.equals(content), `${s.contentDir}/${rel}`).toBe(true);
      }
    }
  });
});

describe("content signals in school.yaml (issue 18)", () => {
  it("set the school's Content-Signal, and an export writes only what differs from the defaults", async () => {
    const yaml = (await readFile(path.join(FIXTURE, "school.yaml"), "utf8")) + "contentSignalAiTrain: true\ncontentSignalAiInput: false\n";
    const dir = await variant("signals", { "school.yaml": yaml });
    await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", dir });
    expect(await db().school.findUniqueOrThrow({ where: { id: school.school.id } })).toMatchObject({ contentSignalAiTrain: true, contentSignalAiInput: false });
    clearSchoolCache(); // the resolver keeps school rows for a moment
    const res = await server.fetch("/robots.txt");
    expect(res.headers.get("content-signal")).toBe("search=yes, ai-input=no, ai-train=yes");
    const files = await renderContentFolder({ db: db(), schoolId: school.school.id });
    expect(files.get("school.yaml")).toContain("\ncontentSignalAiInput: false\n");
    expect(files.get("school.yaml")).toContain("\ncontentSignalAiTrain: true\n");
    expect(files.get("school.yaml")).not.toContain("contentSignalSearch");
  });
});
