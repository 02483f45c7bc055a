// A lecturer's document and the lecturer index.
import { type StorefrontDocument } from "../document";
import { sanitizeMarkdown } from "../markdown-body";
import * as q from "../queries";
import { safeAbsoluteUrl } from "../safe-url";
import { type BuildContext, urls, organization, section, indexDocument } from "./shared";
import { courseItems, postItems, lecturerItems } from "./items";

export function lecturerDocument(ctx: BuildContext, l: q.LecturerRow, { courses, posts }: Pick<q.Catalog, "courses" | "posts">): StorefrontDocument {
  const u = urls(ctx, "lecturer", l.slug);
  const image = safeAbsoluteUrl(l.avatarUrl, ctx.origin);
  return {
    kind: "lecturer",
    slug: l.slug,
    title: l.name,
    description: l.headline,
    ...u,
    image,
    updated: l.updatedAt,
    fields: { name: l.name, headline: l.headline, avatar_url: image, courses: courses.map((c) => c.slug) },
    facts: [],
    body: sanitizeMarkdown(l.bio),
    sections: [...section("courses", "Courses", courseItems(ctx, courses)), ...section("posts", "Posts", postItems(ctx, posts))],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Person",
      name: l.name,
      description: l.headline,
      ...(l.headline ? { jobTitle: l.headline } : {}),
      url: u.url,
      ...(image ? { image } : {}),
      worksFor: organization(ctx),
    },
  };
}

export function lecturerIndexDocument(ctx: BuildContext, lecturers: q.LecturerRow[]): StorefrontDocument {
  return indexDocument(ctx, { kind: "lecturer_index", slug: "lecturers", title: "Lecturers", description: `The people who teach at ${ctx.school.name}.`, items: lecturerItems(ctx, lecturers), rows: lecturers });
}
