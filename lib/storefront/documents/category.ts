// A category's document: its published courses, posts, events and downloads.
import { latest, type StorefrontDocument } from "../document";
import * as q from "../queries";
import { type BuildContext, urls, section, itemList } from "./shared";
import { courseItems, postItems, eventItems, downloadItems } from "./items";

export type CategoryItems = Pick<q.Catalog, "courses" | "posts" | "events" | "downloads">;

export function categoryDocument(ctx: BuildContext, c: q.CategoryRow, { courses, posts, events, downloads }: CategoryItems): StorefrontDocument {
  const u = urls(ctx, "category", c.slug);
  const sections = [
    ...section("courses", "Courses", courseItems(ctx, courses)),
    ...section("events", "Events", eventItems(ctx, events)),
    ...section("posts", "Posts", postItems(ctx, posts)),
    ...section("digital_downloads", "Digital downloads", downloadItems(ctx, downloads)),
  ];
  return {
    kind: "category",
    slug: c.slug,
    title: c.name,
    description: c.description,
    ...u,
    updated: latest([c.updatedAt, ...[...courses, ...posts, ...events, ...downloads].map((r) => r.updatedAt)], c.updatedAt),
    fields: {
      courses: courses.length,
      events: events.length,
      posts: posts.length,
      digital_downloads: downloads.length,
    },
    facts: [],
    body: "",
    sections,
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "CollectionPage",
      name: c.name,
      description: c.description,
      url: u.url,
      mainEntity: itemList(sections.flatMap((s) => s.items)),
    },
  };
}
