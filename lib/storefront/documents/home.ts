// The home document: the school's own text, then its catalog in short lists.
import { latest, type StorefrontDocument } from "../document";
import { sanitizeMarkdown } from "../markdown-body";
import * as q from "../queries";
import { type BuildContext, HOME_LIST_LIMIT, urls, organization, section } from "./shared";
import { courseItems, postItems, eventItems, downloadItems, planItems, categoryItems, lecturerItems } from "./items";

export function homeDocument(ctx: BuildContext, home: q.HomeRow | null, catalog: q.Catalog): StorefrontDocument {
  const { courses, plans, events, posts, downloads, categories, lecturers } = catalog;
  const upcoming = events.filter((e) => e.endsAt >= ctx.now).slice(0, HOME_LIST_LIMIT);
  // The page changes when the first upcoming event ends and leaves the list, without any write.
  const firstEnd = upcoming.reduce<Date | null>((min, e) => (!min || e.endsAt < min ? e.endsAt : min), null);
  const latestPosts = posts.slice(0, HOME_LIST_LIMIT);
  const u = urls(ctx, "home");
  const sections = [
    ...section("courses", "Courses", courseItems(ctx, courses)),
    ...section("plans", "Membership plans", planItems(ctx, plans)),
    ...section("events", "Upcoming events", eventItems(ctx, upcoming)),
    ...section("posts", "Latest posts", postItems(ctx, latestPosts)),
    ...section("digital_downloads", "Digital downloads", downloadItems(ctx, downloads)),
    ...section("categories", "Categories", categoryItems(ctx, categories)),
    ...section("lecturers", "Lecturers", lecturerItems(ctx, lecturers)),
  ];
  const rows = [...courses, ...plans, ...upcoming, ...latestPosts, ...downloads, ...categories, ...lecturers];
  return {
    kind: "home",
    slug: "home",
    title: home?.title ?? ctx.school.name,
    description: home?.tagline || ctx.school.description,
    ...u,
    updated: latest([home?.updatedAt, ctx.school.updatedAt, ...rows.map((r) => r.updatedAt)], ctx.school.updatedAt),
    fields: { school: ctx.school.name },
    facts: [],
    body: sanitizeMarkdown(home?.body ?? ""),
    sections,
    changesAt: firstEnd ? new Date(firstEnd.getTime() + 1) : null,
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "WebSite",
      name: ctx.school.name,
      description: ctx.school.description,
      url: u.url,
      publisher: organization(ctx),
    },
  };
}
