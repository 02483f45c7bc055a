import { parse } from "yaml";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";

export const DEMO_HOST = "localhost:3000";
export const ACME_HOST = "acme-training.localhost:3000";
export const ORIGIN = `http://${DEMO_HOST}`;

/** Splits a markdown document into its YAML frontmatter (parsed by a YAML parser) and body. */
export function parseMarkdown(text: string): { data: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`no frontmatter in:\n${text.slice(0, 200)}`);
  // YAML 1.1 as well: it would turn unquoted dates into Date objects and 49.00 into a number.
  const data = parse(m[1]!, { version: "1.1" }) as Record<string, unknown>;
  return { data, body: m[2]! };
}

export const SECRET = "UNPUBLISHED-MARKER";

/**
 * Unpublished rows of every kind, each named with SECRET, some linked to published items (a draft
 * lecturer on a published course, a hidden category of a published post), so tests can check that
 * nothing unpublished leaks anywhere public.
 */
export async function seedUnpublished(): Promise<void> {
  const schoolId = DEMO_IDS.school;
  const p = db();
  const hiddenCategory = await p.category.create({
    data: { schoolId, slug: "hidden-category", name: `${SECRET} category`, description: SECRET, status: "hidden" },
  });
  const draftLecturer = await p.lecturer.create({
    data: { schoolId, slug: "draft-lecturer", name: `${SECRET} lecturer`, headline: SECRET, bio: SECRET, status: "draft" },
  });
  const intro = await p.course.findFirstOrThrow({ where: { schoolId, slug: "intro-to-sql" } });
  await p.courseLecturer.create({ data: { courseId: intro.id, lecturerId: draftLecturer.id, position: 9 } });
  await p.post.update({ where: { schoolId_slug: { schoolId, slug: "spring-schedule" } }, data: { categoryId: hiddenCategory.id, authorId: draftLecturer.id } });
  await p.event.create({
    data: {
      schoolId,
      slug: "draft-event",
      title: `${SECRET} event`,
      summary: SECRET,
      startsAt: new Date("2027-03-01T10:00:00Z"),
      endsAt: new Date("2027-03-01T11:00:00Z"),
      status: "draft",
    },
  });
  await p.digitalDownload.create({
    data: { schoolId, slug: "hidden-download", title: `${SECRET} download`, summary: SECRET, price: "5.00", currency: "USD", status: "hidden" },
  });
  await p.faqEntry.create({ data: { schoolId, question: `${SECRET} question?`, answer: SECRET, status: "draft", position: 0 } });
  await p.course.update({ where: { schoolId_slug: { schoolId, slug: "advanced-dashboards" } }, data: { summary: SECRET, title: `${SECRET} course` } });
  await p.membershipPlan.update({ where: { id: DEMO_IDS.plans.legacyAnnual }, data: { description: SECRET } });
  await p.post.update({ where: { schoolId_slug: { schoolId, slug: "unannounced-partnership" } }, data: { title: `${SECRET} post` } });
}

/** Unpublished slugs per markdown route. */
export const UNPUBLISHED_PATHS = [
  "/api/md/courses/advanced-dashboards",
  "/api/md/posts/unannounced-partnership",
  "/api/md/events/draft-event",
  "/api/md/digital-downloads/hidden-download",
  "/api/md/plans/legacy-annual",
  "/api/md/categories/hidden-category",
  "/api/md/lecturers/draft-lecturer",
];

/** One published example per markdown route of the demo school. */
export const DEMO_MARKDOWN_PATHS: Array<{ path: string; type: string; slug: string }> = [
  { path: "/api/md/home", type: "home", slug: "home" },
  { path: "/api/md/faq", type: "faq", slug: "faq" },
  { path: "/api/md/courses", type: "course_index", slug: "courses" },
  { path: "/api/md/courses/intro-to-sql", type: "course", slug: "intro-to-sql" },
  { path: "/api/md/posts/five-sql-mistakes", type: "post", slug: "five-sql-mistakes" },
  { path: "/api/md/events/sql-office-hours-december", type: "event", slug: "sql-office-hours-december" },
  { path: "/api/md/digital-downloads/lightroom-presets", type: "digital_download", slug: "lightroom-presets" },
  { path: "/api/md/plans/monthly", type: "plan", slug: "monthly" },
  { path: "/api/md/categories/data", type: "category", slug: "data" },
  { path: "/api/md/lecturers", type: "lecturer_index", slug: "lecturers" },
  { path: "/api/md/lecturers/tomas-rivera", type: "lecturer", slug: "tomas-rivera" },
];
