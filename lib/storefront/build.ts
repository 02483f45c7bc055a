// Builds the document of each storefront route from published content.
import type { School } from "../db/generated/client";
import { latest, type Fact, type FactValue, type LinkItem, type Section, type StorefrontDocument, type YamlValue } from "./document";
import {
  displayBytes,
  displayDate,
  displayDateTime,
  displayDuration,
  displayPrice,
  everyInterval,
  isoInZone,
  lengthOf,
  moneyString,
  oneLine,
  safeTimeZone,
} from "./format";
import { sanitizeMarkdown } from "./markdown-body";
import { inlineText } from "./markdown-text";
import * as q from "./queries";
import { htmlPathOf, markdownPathOf, type DocumentKind } from "./routes";
import { safeAbsoluteUrl, safeHref } from "./safe-url";

export interface BuildContext {
  school: Pick<School, "id" | "name" | "description" | "updatedAt">;
  /** Request origin (scheme://host[:port]) for absolute URLs. */
  origin: string;
  now: Date;
}

const HOME_LIST_LIMIT = 20;

function urls(ctx: BuildContext, kind: DocumentKind, slug?: string) {
  return { url: ctx.origin + htmlPathOf(kind, slug), markdownUrl: ctx.origin + markdownPathOf(kind, slug) };
}

function link(ctx: BuildContext, kind: DocumentKind, slug: string, title: string, summary: string, meta?: string): LinkItem {
  return { title, summary: oneLine(summary), ...urls(ctx, kind, slug), ...(meta ? { meta } : {}) };
}

function fact(key: string, label: string, ...values: FactValue[]): Fact {
  return { key, label, values };
}

const text = (t: string): FactValue => ({ text: t });
const iso = (d: Date) => d.toISOString();

type CategoryRef = { slug: string; name: string; status: string } | null;

function categoryOf(ctx: BuildContext, c: CategoryRef) {
  if (!c || c.status !== "published") return null;
  const u = urls(ctx, "category", c.slug);
  return { yaml: { name: c.name, slug: c.slug, url: u.url, markdown_url: u.markdownUrl } as YamlValue, value: { text: c.name, ...u } };
}

function priceFields(price: string, currency: string): Record<string, YamlValue> {
  return { price, currency };
}

function organization(ctx: BuildContext) {
  return { "@type": "Organization", name: ctx.school.name, url: ctx.origin + "/" };
}

function offer(url: string, price: string, currency: string) {
  return { "@type": "Offer", price, priceCurrency: currency, url, availability: "https://schema.org/InStock" };
}

// ─── Items ─────────────────────────────────────────────────────────────────────

function courseMeta(c: q.CourseRow): string {
  const parts: string[] = [];
  if (c.price !== null && c.currency) parts.push(displayPrice(moneyString(c.price), c.currency));
  if (c.level) parts.push(c.level);
  if (c.durationMinutes) parts.push(displayDuration(c.durationMinutes));
  return parts.join(" · ");
}

function courseDocument(ctx: BuildContext, c: q.CourseRow): StorefrontDocument {
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
      ...(price && c.currency ? { offers: offer(u.url, price, c.currency) } : {}),
    },
  };
}

function postDocument(ctx: BuildContext, p: q.PostRow): StorefrontDocument {
  const u = urls(ctx, "post", p.slug);
  const category = categoryOf(ctx, p.category);
  const author = p.author && p.author.status === "published" ? { ...p.author, ...urls(ctx, "lecturer", p.author.slug) } : null;
  const facts: Fact[] = [];
  if (p.publishedAt) facts.push(fact("published", "Published", { text: displayDate(p.publishedAt), datetime: iso(p.publishedAt) }));
  if (author) facts.push(fact("author", "Author", { text: author.name, url: author.url, markdownUrl: author.markdownUrl }));
  if (category) facts.push(fact("category", "Category", category.value));
  return {
    kind: "post",
    slug: p.slug,
    title: p.title,
    description: p.excerpt,
    ...u,
    updated: p.updatedAt,
    fields: {
      published: p.publishedAt ? iso(p.publishedAt) : null,
      author: author ? { name: author.name, slug: author.slug, url: author.url, markdown_url: author.markdownUrl } : null,
      category: category?.yaml ?? null,
    },
    facts,
    body: sanitizeMarkdown(p.body),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: p.title,
      description: p.excerpt,
      url: u.url,
      ...(p.publishedAt ? { datePublished: iso(p.publishedAt) } : {}),
      dateModified: iso(p.updatedAt),
      ...(author ? { author: { "@type": "Person", name: author.name, url: author.url } } : { author: organization(ctx) }),
      publisher: organization(ctx),
    },
  };
}

function eventDocument(ctx: BuildContext, e: q.EventRow): StorefrontDocument {
  const u = urls(ctx, "event", e.slug);
  const zone = safeTimeZone(e.timezone);
  const start = isoInZone(e.startsAt, zone);
  const end = isoInZone(e.endsAt, zone);
  const category = categoryOf(ctx, e.category);
  const price = e.price !== null && e.currency ? moneyString(e.price) : null;
  // An online URL that is not an absolute http(s) URL is left out everywhere, as if none was set.
  const onlineUrl = safeHref(e.onlineUrl, { absolute: true });
  const mode = e.location && onlineUrl ? "mixed" : e.location ? "offline" : "online";

  const facts: Fact[] = [
    fact("start", "Starts", { text: displayDateTime(e.startsAt, zone), datetime: start }),
    fact("end", "Ends", { text: displayDateTime(e.endsAt, zone), datetime: end }),
    fact("timezone", "Time zone", text(zone)),
  ];
  if (e.location) facts.push(fact("location", "Location", text(e.location)));
  if (onlineUrl) facts.push(fact("online_url", "Online", { text: onlineUrl, url: onlineUrl, markdownUrl: onlineUrl }));
  if (price && e.currency) facts.push(fact("price", "Price", text(displayPrice(price, e.currency))));
  if (category) facts.push(fact("category", "Category", category.value));

  const location: Record<string, unknown>[] = [];
  if (e.location) location.push({ "@type": "Place", name: e.location, address: e.location });
  if (onlineUrl) location.push({ "@type": "VirtualLocation", url: onlineUrl });
  const attendance = { online: "OnlineEventAttendanceMode", offline: "OfflineEventAttendanceMode", mixed: "MixedEventAttendanceMode" }[mode];

  return {
    kind: "event",
    slug: e.slug,
    title: e.title,
    description: e.summary,
    ...u,
    updated: e.updatedAt,
    fields: {
      start,
      end,
      timezone: zone,
      attendance_mode: mode,
      location: e.location,
      online_url: onlineUrl,
      ...(price && e.currency ? priceFields(price, e.currency) : {}),
      category: category?.yaml ?? null,
    },
    facts,
    body: sanitizeMarkdown(e.body),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Event",
      name: e.title,
      description: e.summary,
      url: u.url,
      startDate: start,
      endDate: end,
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: `https://schema.org/${attendance}`,
      location: location.length === 1 ? location[0] : location,
      organizer: organization(ctx),
      ...(price && e.currency ? { offers: offer(u.url, price, e.currency) } : {}),
    },
  };
}

function downloadDocument(ctx: BuildContext, d: q.DownloadRow): StorefrontDocument {
  const u = urls(ctx, "digital_download", d.slug);
  const price = moneyString(d.price);
  const category = categoryOf(ctx, d.category);
  const facts: Fact[] = [fact("price", "Price", text(displayPrice(price, d.currency)))];
  if (d.fileName) facts.push(fact("file", "File", text(d.fileSizeBytes ? `${d.fileName} (${displayBytes(d.fileSizeBytes)})` : d.fileName)));
  if (category) facts.push(fact("category", "Category", category.value));
  return {
    kind: "digital_download",
    slug: d.slug,
    title: d.title,
    description: d.summary,
    ...u,
    updated: d.updatedAt,
    fields: {
      ...priceFields(price, d.currency),
      file_name: d.fileName,
      file_size_bytes: d.fileSizeBytes,
      category: category?.yaml ?? null,
    },
    facts,
    body: sanitizeMarkdown(d.body),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Product",
      name: d.title,
      description: d.summary,
      url: u.url,
      brand: organization(ctx),
      offers: offer(u.url, price, d.currency),
    },
  };
}

function planTerms(p: Pick<q.PlanRow, "planType" | "interval" | "intervalCount" | "lengthCount" | "lengthInterval" | "fixedEndAt">): string {
  switch (p.planType) {
    case "recurring":
      return p.interval ? `Billed ${everyInterval(p.intervalCount, p.interval)}` : "Recurring";
    case "fixed_date":
      return p.fixedEndAt ? `Access until ${displayDate(p.fixedEndAt)}` : "Access until a set date";
    case "specific_length":
      return p.lengthCount && p.lengthInterval ? `Access for ${lengthOf(p.lengthCount, p.lengthInterval)}` : "Access for a set length";
    case "lifetime":
      return "One-time payment, lifetime access";
  }
}

function planDocument(ctx: BuildContext, p: q.PlanRow): StorefrontDocument {
  const u = urls(ctx, "plan", p.slug);
  const price = moneyString(p.price);
  const terms = planTerms(p);
  const facts: Fact[] = [fact("price", "Price", text(displayPrice(price, p.currency))), fact("terms", "Terms", text(terms))];
  if (p.planType === "fixed_date" && p.fixedEndAt) {
    facts.push(fact("ends", "Ends", { text: displayDate(p.fixedEndAt), datetime: iso(p.fixedEndAt) }));
  }
  return {
    kind: "plan",
    slug: p.slug,
    title: p.name,
    description: p.description,
    ...u,
    updated: p.updatedAt,
    fields: {
      ...priceFields(price, p.currency),
      plan_type: p.planType,
      terms,
      ...(p.planType === "recurring" ? { interval: p.interval, interval_count: p.intervalCount } : {}),
      ...(p.planType === "specific_length" ? { length_count: p.lengthCount, length_interval: p.lengthInterval } : {}),
      ...(p.planType === "fixed_date" ? { ends: p.fixedEndAt ? iso(p.fixedEndAt) : null } : {}),
    },
    facts,
    body: "",
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Product",
      name: p.name,
      description: p.description,
      url: u.url,
      brand: organization(ctx),
      offers: {
        ...offer(u.url, price, p.currency),
        ...(p.planType === "recurring" && p.interval
          ? {
              priceSpecification: {
                "@type": "UnitPriceSpecification",
                price,
                priceCurrency: p.currency,
                billingDuration: p.intervalCount,
                unitText: p.interval.toUpperCase(),
              },
            }
          : {}),
      },
    },
  };
}

// ─── Lists shared by indexes, category, lecturer and home ───────────────────────

const courseItems = (ctx: BuildContext, rows: q.CourseRow[]) =>
  rows.map((c) => link(ctx, "course", c.slug, c.title, c.summary, courseMeta(c) || undefined));
const postItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listPosts>>) =>
  rows.map((p) => link(ctx, "post", p.slug, p.title, p.excerpt, p.publishedAt ? displayDate(p.publishedAt) : undefined));
const eventItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listEvents>>) =>
  rows.map((e) => link(ctx, "event", e.slug, e.title, e.summary, displayDateTime(e.startsAt, e.timezone)));
const downloadItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listDownloads>>) =>
  rows.map((d) => link(ctx, "digital_download", d.slug, d.title, d.summary, displayPrice(moneyString(d.price), d.currency)));
const planItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listPlans>>) =>
  rows.map((p) => link(ctx, "plan", p.slug, p.name, p.description, `${displayPrice(moneyString(p.price), p.currency)} · ${planTerms(p)}`));
const categoryItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listCategories>>) =>
  rows.map((c) => link(ctx, "category", c.slug, c.name, c.description));
const lecturerItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listLecturers>>) =>
  rows.map((l) => link(ctx, "lecturer", l.slug, l.name, l.headline));

function section(key: string, heading: string, items: LinkItem[]): Section[] {
  return items.length ? [{ key, heading, items }] : [];
}

function itemList(items: LinkItem[]) {
  return {
    "@type": "ItemList",
    itemListElement: items.map((item, i) => ({ "@type": "ListItem", position: i + 1, url: item.url, name: item.title })),
  };
}

type CategoryItems = Pick<q.Catalog, "courses" | "posts" | "events" | "downloads">;

function categoryDocument(ctx: BuildContext, c: q.CategoryRow, { courses, posts, events, downloads }: CategoryItems): StorefrontDocument {
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

function lecturerDocument(ctx: BuildContext, l: q.LecturerRow, { courses, posts }: Pick<q.Catalog, "courses" | "posts">): StorefrontDocument {
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
      url: u.url,
      ...(image ? { image } : {}),
      worksFor: organization(ctx),
    },
  };
}

// ─── Pages without a slug ──────────────────────────────────────────────────────

function courseIndexDocument(ctx: BuildContext, courses: q.CourseRow[]): StorefrontDocument {
  const items = courseItems(ctx, courses);
  const u = urls(ctx, "course_index");
  return {
    kind: "course_index",
    slug: "courses",
    title: "Courses",
    description: `All courses of ${ctx.school.name}.`,
    ...u,
    updated: latest(courses.map((c) => c.updatedAt), ctx.school.updatedAt),
    fields: { count: courses.length },
    facts: [],
    body: "",
    sections: section("courses", "Courses", items),
    jsonLd: { "@context": "https://schema.org", "@type": "CollectionPage", name: "Courses", url: u.url, mainEntity: itemList(items) },
  };
}

function lecturerIndexDocument(ctx: BuildContext, lecturers: q.LecturerRow[]): StorefrontDocument {
  const items = lecturerItems(ctx, lecturers);
  const u = urls(ctx, "lecturer_index");
  return {
    kind: "lecturer_index",
    slug: "lecturers",
    title: "Lecturers",
    description: `The people who teach at ${ctx.school.name}.`,
    ...u,
    updated: latest(lecturers.map((l) => l.updatedAt), ctx.school.updatedAt),
    fields: { count: lecturers.length },
    facts: [],
    body: "",
    sections: section("lecturers", "Lecturers", items),
    jsonLd: { "@context": "https://schema.org", "@type": "CollectionPage", name: "Lecturers", url: u.url, mainEntity: itemList(items) },
  };
}

/** Markdown of the FAQ: one H2 per question, so the HTML and the markdown read alike. */
export function faqMarkdown(entries: Array<{ question: string; answer: string }>): string {
  return entries.map((e) => `## ${inlineText(e.question)}\n\n${sanitizeMarkdown(e.answer)}\n`).join("\n");
}

function faqDocument(ctx: BuildContext, entries: q.FaqRow[]): StorefrontDocument {
  const u = urls(ctx, "faq");
  return {
    kind: "faq",
    slug: "faq",
    title: "Frequently asked questions",
    description: `Answers to common questions about ${ctx.school.name}.`,
    ...u,
    updated: latest(entries.map((e) => e.updatedAt), ctx.school.updatedAt),
    fields: { count: entries.length },
    facts: [],
    body: faqMarkdown(entries),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "FAQPage",
      url: u.url,
      mainEntity: entries.map((e) => ({
        "@type": "Question",
        name: e.question,
        acceptedAnswer: { "@type": "Answer", text: e.answer },
      })),
    },
  };
}

function homeDocument(ctx: BuildContext, home: q.HomeRow | null, catalog: q.Catalog): StorefrontDocument {
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
