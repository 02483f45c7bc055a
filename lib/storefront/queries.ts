// Published-only reads of a school's storefront content. Every query here filters on
// status = published, including the related rows it pulls in (a published course never
// exposes a draft lecturer or a hidden category).
import { db } from "../db/client";

const published = { status: "published" } as const;

const categoryRef = { select: { slug: true, name: true, status: true } } as const;

export function findHome(schoolId: string) {
  return db().homePage.findUnique({ where: { schoolId } });
}

export function listFaq(schoolId: string) {
  return db().faqEntry.findMany({ where: { schoolId, ...published }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });
}

const courseInclude = {
  category: categoryRef,
  lecturers: {
    where: { lecturer: published },
    orderBy: { position: "asc" },
    include: { lecturer: { select: { slug: true, name: true, headline: true } } },
  },
} as const;

export function listCourses(schoolId: string, where: { categoryId?: string; lecturerId?: string } = {}) {
  return db().course.findMany({
    where: {
      schoolId,
      ...published,
      ...(where.categoryId ? { categoryId: where.categoryId } : {}),
      ...(where.lecturerId ? { lecturers: { some: { lecturerId: where.lecturerId } } } : {}),
    },
    orderBy: [{ position: "asc" }, { title: "asc" }],
    include: courseInclude,
  });
}

export function findCourse(schoolId: string, slug: string) {
  return db().course.findFirst({ where: { schoolId, slug, ...published }, include: courseInclude });
}

const postInclude = { category: categoryRef, author: { select: { slug: true, name: true, status: true } } } as const;

export function listPosts(schoolId: string, where: { categoryId?: string; authorId?: string } = {}) {
  return db().post.findMany({
    where: { schoolId, ...published, ...where },
    orderBy: [{ publishedAt: { sort: "desc", nulls: "last" } }, { title: "asc" }],
    include: postInclude,
  });
}

export function findPost(schoolId: string, slug: string) {
  return db().post.findFirst({ where: { schoolId, slug, ...published }, include: postInclude });
}

export function listEvents(schoolId: string, where: { categoryId?: string } = {}) {
  return db().event.findMany({
    where: { schoolId, ...published, ...where },
    orderBy: [{ startsAt: "asc" }, { title: "asc" }],
    include: { category: categoryRef },
  });
}

export function findEvent(schoolId: string, slug: string) {
  return db().event.findFirst({ where: { schoolId, slug, ...published }, include: { category: categoryRef } });
}

export function listDownloads(schoolId: string, where: { categoryId?: string } = {}) {
  return db().digitalDownload.findMany({
    where: { schoolId, ...published, ...where },
    orderBy: [{ title: "asc" }],
    include: { category: categoryRef },
  });
}

export function findDownload(schoolId: string, slug: string) {
  return db().digitalDownload.findFirst({ where: { schoolId, slug, ...published }, include: { category: categoryRef } });
}

export function listPlans(schoolId: string) {
  return db().membershipPlan.findMany({ where: { schoolId, ...published }, orderBy: [{ position: "asc" }, { name: "asc" }] });
}

export function findPlan(schoolId: string, slug: string) {
  return db().membershipPlan.findFirst({ where: { schoolId, slug, ...published } });
}

export function listCategories(schoolId: string) {
  return db().category.findMany({ where: { schoolId, ...published }, orderBy: [{ position: "asc" }, { name: "asc" }] });
}

export function findCategory(schoolId: string, slug: string) {
  return db().category.findFirst({ where: { schoolId, slug, ...published } });
}

export function listLecturers(schoolId: string) {
  return db().lecturer.findMany({ where: { schoolId, ...published }, orderBy: [{ position: "asc" }, { name: "asc" }] });
}

export function findLecturer(schoolId: string, slug: string) {
  return db().lecturer.findFirst({ where: { schoolId, slug, ...published } });
}

/** Every published item of a school, each list in its storefront order. */
export async function loadCatalog(schoolId: string) {
  const [courses, plans, events, posts, downloads, categories, lecturers] = await Promise.all([
    listCourses(schoolId),
    listPlans(schoolId),
    listEvents(schoolId),
    listPosts(schoolId),
    listDownloads(schoolId),
    listCategories(schoolId),
    listLecturers(schoolId),
  ]);
  return { courses, plans, events, posts, downloads, categories, lecturers };
}

export type Catalog = Awaited<ReturnType<typeof loadCatalog>>;
export type HomeRow = NonNullable<Awaited<ReturnType<typeof findHome>>>;
export type FaqRow = Awaited<ReturnType<typeof listFaq>>[number];
export type CourseRow = NonNullable<Awaited<ReturnType<typeof findCourse>>>;
export type PostRow = NonNullable<Awaited<ReturnType<typeof findPost>>>;
export type EventRow = NonNullable<Awaited<ReturnType<typeof findEvent>>>;
export type DownloadRow = NonNullable<Awaited<ReturnType<typeof findDownload>>>;
export type PlanRow = NonNullable<Awaited<ReturnType<typeof findPlan>>>;
export type CategoryRow = NonNullable<Awaited<ReturnType<typeof findCategory>>>;
export type LecturerRow = NonNullable<Awaited<ReturnType<typeof findLecturer>>>;
