// A course's document and the course index.
import { type Fact, type StorefrontDocument } from "../document";
import { displayDuration, displayPrice, moneyString } from "../format";
import { sanitizeMarkdown } from "../markdown-body";
import * as q from "../queries";
import { safeAbsoluteUrl } from "../safe-url";
import { type BuildContext, urls, fact, text, iso, categoryOf, priceFields, organization, courseOffer, indexDocument } from "./shared";
import { courseItems } from "./items";

export function courseDocument(ctx: BuildContext, c: q.CourseRow): StorefrontDocument {
  const u = urls(ctx, "course", c.slug);
  const category = categoryOf(ctx, c.category);
  const lecturers = c.lecturers.map((l) => ({ ...l.lecturer, ...urls(ctx, "lecturer", l.lecturer.slug) }));
  const price = c.price !== null && c.currency ? moneyString(c.price) : null;
  const image = safeAbsoluteUrl(c.imageUrl, ctx.origin);

  const facts: Fact[] = [];
  if (price && c.currency) facts.push(fact("price", "Price", text(displayPrice(price, c.currency))));
  if (c.level) facts.push(fact("level", "Level", text(c.level)));
  if (c.durationMinutes) facts.push(fact("duration", "Duration", text(displayDuration(c.durationMinutes))));
  if (lecturers.length) {
    facts.push(fact("lecturers", lecturers.length === 1 ? "Lecturer" : "Lecturers", ...lecturers.map((l) => ({ text: l.name, url: l.url, markdownUrl: l.markdownUrl }))));
  }
  if (category) facts.push(fact("category", "Category", category.value));

  return {
    kind: "course",
    slug: c.slug,
    title: c.title,
    description: c.summary,
    ...u,
    image,
    updated: c.updatedAt,
    fields: {
      ...(price && c.currency ? priceFields(price, c.currency) : {}),
      image_url: image,
      level: c.level,
      duration_minutes: c.durationMinutes,
      published: c.publishedAt ? iso(c.publishedAt) : null,
      category: category?.yaml ?? null,
      lecturers: lecturers.map((l) => ({ name: l.name, slug: l.slug, url: l.url, markdown_url: l.markdownUrl })),
    },
    facts,
    body: sanitizeMarkdown(c.body),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Course",
      name: c.title,
      description: c.summary,
      url: u.url,
      ...(image ? { image } : {}),
      provider: organization(ctx),
      ...(c.level ? { educationalLevel: c.level } : {}),
      ...(c.durationMinutes ? { timeRequired: `PT${c.durationMinutes}M` } : {}),
      ...(lecturers.length ? { instructor: lecturers.map((l) => ({ "@type": "Person", name: l.name, url: l.url })) } : {}),
      offers: courseOffer(u.url, price, c.currency),
      // Self-paced and online: the storefront sells recorded courses, not scheduled sessions.
      hasCourseInstance: {
        "@type": "CourseInstance",
        courseMode: "Online",
        ...(c.durationMinutes ? { courseWorkload: `PT${c.durationMinutes}M` } : {}),
        ...(lecturers.length ? { instructor: lecturers.map((l) => ({ "@type": "Person", name: l.name, url: l.url })) } : {}),
      },
      ...(category ? { about: { "@type": "Thing", name: c.category!.name } } : {}),
    },
  };
}

export function courseIndexDocument(ctx: BuildContext, courses: q.CourseRow[]): StorefrontDocument {
  return indexDocument(ctx, { kind: "course_index", slug: "courses", title: "Courses", description: `All courses of ${ctx.school.name}.`, items: courseItems(ctx, courses), rows: courses });
}
