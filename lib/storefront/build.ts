// The dispatcher: which document a route addresses, and every public document at once (llms
// files). The documents themselves are built per kind in ./documents/.
import type { Section, StorefrontDocument } from "./document";
import { categoryDocument } from "./documents/category";
import { courseDocument, courseIndexDocument } from "./documents/course";
import { downloadDocument } from "./documents/download";
import { eventDocument } from "./documents/event";
import { faqDocument } from "./documents/faq";
import { homeDocument } from "./documents/home";
import { categoryItems, courseItems, downloadItems, eventItems, lecturerItems, planItems, postItems } from "./documents/items";
import { lecturerDocument, lecturerIndexDocument } from "./documents/lecturer";
import { planDocument } from "./documents/plan";
import { postDocument } from "./documents/post";
import { section, type BuildContext } from "./documents/shared";
import * as q from "./queries";
import type { DocumentKind } from "./routes";

export type { BuildContext } from "./documents/shared";
export { faqMarkdown } from "./documents/faq";

/** The document a route addresses; null when no published item has that slug. */
export async function buildDocument(ctx: BuildContext, kind: DocumentKind, slug?: string): Promise<StorefrontDocument | null> {
  const id = ctx.school.id;
  const s = slug ?? "";
  const orNull = <R>(row: R | null, doc: (row: R) => StorefrontDocument) => (row ? doc(row) : null);
  switch (kind) {
    case "home": {
      const [home, catalog] = await Promise.all([q.findHome(id), q.loadCatalog(id)]);
      return homeDocument(ctx, home, catalog);
    }
    case "faq":
      return faqDocument(ctx, await q.listFaq(id));
    case "course_index":
      return courseIndexDocument(ctx, await q.listCourses(id));
    case "lecturer_index":
      return lecturerIndexDocument(ctx, await q.listLecturers(id));
    case "course":
      return orNull(await q.findCourse(id, s), (r) => courseDocument(ctx, r));
    case "post":
      return orNull(await q.findPost(id, s), (r) => postDocument(ctx, r));
    case "event":
      return orNull(await q.findEvent(id, s), (r) => eventDocument(ctx, r));
    case "digital_download":
      return orNull(await q.findDownload(id, s), (r) => downloadDocument(ctx, r));
    case "plan":
      return orNull(await q.findPlan(id, s), (r) => planDocument(ctx, r));
    case "category": {
      const c = await q.findCategory(id, s);
      if (!c) return null;
      const [courses, posts, events, downloads] = await Promise.all([
        q.listCourses(id, { categoryId: c.id }),
        q.listPosts(id, { categoryId: c.id }),
        q.listEvents(id, { categoryId: c.id }),
        q.listDownloads(id, { categoryId: c.id }),
      ]);
      return categoryDocument(ctx, c, { courses, posts, events, downloads });
    }
    case "lecturer": {
      const l = await q.findLecturer(id, s);
      if (!l) return null;
      const [courses, posts] = await Promise.all([q.listCourses(id, { lecturerId: l.id }), q.listPosts(id, { authorId: l.id })]);
      return lecturerDocument(ctx, l, { courses, posts });
    }
  }
}

// ─── Everything public, for llms.txt and llms-full.txt ──────────────────────────

function catalogSectionsOf(ctx: BuildContext, catalog: q.Catalog): Section[] {
  const { courses, plans, events, posts, downloads, categories, lecturers } = catalog;
  return [
    ...section("courses", "Courses", courseItems(ctx, courses)),
    ...section("plans", "Membership plans", planItems(ctx, plans)),
    ...section("events", "Events", eventItems(ctx, events)),
    ...section("posts", "Posts", postItems(ctx, posts)),
    ...section("digital_downloads", "Digital downloads", downloadItems(ctx, downloads)),
    ...section("categories", "Categories", categoryItems(ctx, categories)),
    ...section("lecturers", "Lecturers", lecturerItems(ctx, lecturers)),
  ];
}

/** Sections listing every public item (no limits), in llms.txt order. */
export async function catalogSections(ctx: BuildContext): Promise<Section[]> {
  return catalogSectionsOf(ctx, await q.loadCatalog(ctx.school.id));
}

/**
 * Every public document of the school, pages first, then items in catalog order. Built from the
 * list queries alone (nine queries whatever the school's size): the per-category and per-lecturer
 * lists are the catalog's rows filtered in memory, in the same order as their own queries.
 */
export async function allDocuments(ctx: BuildContext): Promise<StorefrontDocument[]> {
  const id = ctx.school.id;
  const [home, faq, catalog] = await Promise.all([q.findHome(id), q.listFaq(id), q.loadCatalog(id)]);
  const { courses, plans, events, posts, downloads, categories, lecturers } = catalog;
  return [
    homeDocument(ctx, home, catalog),
    faqDocument(ctx, faq),
    courseIndexDocument(ctx, courses),
    lecturerIndexDocument(ctx, lecturers),
    ...courses.map((r) => courseDocument(ctx, r)),
    ...plans.map((r) => planDocument(ctx, r)),
    ...events.map((r) => eventDocument(ctx, r)),
    ...posts.map((r) => postDocument(ctx, r)),
    ...downloads.map((r) => downloadDocument(ctx, r)),
    ...categories.map((c) =>
      categoryDocument(ctx, c, {
        courses: courses.filter((r) => r.categoryId === c.id),
        posts: posts.filter((r) => r.categoryId === c.id),
        events: events.filter((r) => r.categoryId === c.id),
        downloads: downloads.filter((r) => r.categoryId === c.id),
      }),
    ),
    ...lecturers.map((l) =>
      lecturerDocument(ctx, l, {
        courses: courses.filter((r) => r.lecturers.some((x) => x.lecturerId === l.id)),
        posts: posts.filter((r) => r.authorId === l.id),
      }),
    ),
  ];
}
