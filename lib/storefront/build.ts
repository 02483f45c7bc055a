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
import * as q from "./queries";
import { htmlPathOf, markdownPathOf, type DocumentKind } from "./routes";

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

export async function courseDocument(ctx: BuildContext, slug: string): Promise<StorefrontDocument | null> {
  const c = await q.findCourse(ctx.school.id, slug);
  if (!c) return null;
  const u = urls(ctx, "course", c.slug);
  const category = categoryOf(ctx, c.category);
  const lecturers = c.lecturers.map((l) => ({ ...l.lecturer, ...urls(ctx, "lecturer", l.lecturer.slug) }));
  const price = c.price !== null && c.currency ? moneyString(c.price) : null;

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
    updated: c.updatedAt,
    fields: {
      ...(price && c.currency ? priceFields(price, c.currency) : {}),
      level: c.level,
      duration_minutes: c.durationMinutes,
      published: c.publishedAt ? iso(c.publishedAt) : null,
      category: category?.yaml ?? null,
      lecturers: lecturers.map((l) => ({ name: l.name, slug: l.slug, url: l.url, markdown_url: l.markdownUrl })),
    },
    facts,
    body: c.body,
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Course",
      name: c.title,
      description: c.summary,
      url: u.url,
      provider: organization(ctx),
      ...(c.level ? { educationalLevel: c.level } : {}),
      ...(c.durationMinutes ? { timeRequired: `PT${c.durationMinutes}M` } : {}),
      ...(lecturers.length ? { instructor: lecturers.map((l) => ({ "@type": "Person", name: l.name, url: l.url })) } : {}),
      ...(price && c.currency ? { offers: offer(u.url, price, c.currency) } : {}),
    },
  };
}

export async function postDocument(ctx: BuildContext, slug: string): Promise<StorefrontDocument | null> {
  const p = await q.findPost(ctx.school.id, slug);
  if (!p) return null;
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
    body: p.body,
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

export async function eventDocument(ctx: BuildContext, slug: string): Promise<StorefrontDocument | null> {
  const e = await q.findEvent(ctx.school.id, slug);
  if (!e) return null;
  const u = urls(ctx, "event", e.slug);
  const zone = safeTimeZone(e.timezone);
  const start = isoInZone(e.startsAt, zone);
  const end = isoInZone(e.endsAt, zone);
  const category = categoryOf(ctx, e.category);
  const price = e.price !== null && e.currency ? moneyString(e.price) : null;
  const mode = e.location && e.onlineUrl ? "mixed" : e.location ? "offline" : "online";

  const facts: Fact[] = [
    fact("start", "Starts", { text: displayDateTime(e.startsAt, zone), datetime: start }),
    fact("end", "Ends", { text: displayDateTime(e.endsAt, zone), datetime: end }),
    fact("timezone", "Time zone", text(zone)),
  ];
  if (e.location) facts.push(fact("location", "Location", text(e.location)));
  if (e.onlineUrl) facts.push(fact("online_url", "Online", { text: e.onlineUrl, url: e.onlineUrl, markdownUrl: e.onlineUrl }));
  if (price && e.currency) facts.push(fact("price", "Price", text(displayPrice(price, e.currency))));
  if (category) facts.push(fact("category", "Category", category.value));

  const location: Record<string, unknown>[] = [];
  if (e.location) location.push({ "@type": "Place", name: e.location, address: e.location });
  if (e.onlineUrl) location.push({ "@type": "VirtualLocation", url: e.onlineUrl });
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
      online_url: e.onlineUrl,
      ...(price && e.currency ? priceFields(price, e.currency) : {}),
      category: category?.yaml ?? null,
    },
    facts,
    body: e.body,
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

export async function downloadDocument(ctx: BuildContext, slug: string): Promise<StorefrontDocument | null> {
  const d = await q.findDownload(ctx.school.id, slug);
  if (!d) return null;
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
    body: d.body,
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

export async function planDocument(ctx: BuildContext, slug: string): Promise<StorefrontDocument | null> {
  const p = await q.findPlan(ctx.school.id, slug);
  if (!p) return null;
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

export async function categoryDocument(ctx: BuildContext, slug: string): Promise<StorefrontDocument | null> {
  const c = await q.findCategory(ctx.school.id, slug);
  if (!c) return null;
  const u = urls(ctx, "category", c.slug);
  const [courses, posts, events, downloads] = await Promise.all([
    q.listCourses(ctx.school.id, { categoryId: c.id }),
    q.listPosts(ctx.school.id, { categoryId: c.id }),
    q.listEvents(ctx.school.id, { categoryId: c.id }),
    q.listDownloads(ctx.school.id, { categoryId: c.id }),
  ]);
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

export async function lecturerDocument(ctx: BuildContext, slug: string): Promise<StorefrontDocument | null> {
  const l = await q.findLecturer(ctx.school.id, slug);
  if (!l) return null;
  const u = urls(ctx, "lecturer", l.slug);
  const [courses, posts] = await Promise.all([
    q.listCourses(ctx.school.id, { lecturerId: l.id }),
    q.listPosts(ctx.school.id, { authorId: l.id }),
  ]);
  return {
    kind: "lecturer",
    slug: l.slug,
    title: l.name,
    description: l.headline,
    ...u,
    updated: l.updatedAt,
    fields: { name: l.name, headline: l.headline, avatar_url: l.avatarUrl, courses: courses.map((c) => c.slug) },
    facts: [],
    body: l.bio,
    sections: [...section("courses", "Courses", courseItems(ctx, courses)), ...section("posts", "Posts", postItems(ctx, posts))],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Person",
      name: l.name,
      description: l.headline,
      url: u.url,
      ...(l.avatarUrl ? { image: l.avatarUrl } : {}),
      worksFor: organization(ctx),
    },
  };
}

// ─── Pages without a slug ──────────────────────────────────────────────────────

export async function courseIndexDocument(ctx: BuildContext): Promise<StorefrontDocument> {
  const courses = await q.listCourses(ctx.school.id);
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

export async function lecturerIndexDocument(ctx: BuildContext): Promise<StorefrontDocument> {
  const lecturers = await q.listLecturers(ctx.school.id);
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
  return entries.map((e) => `## ${oneLine(e.question)}\n\n${e.answer.trim()}\n`).join("\n");
}

export async function faqDocument(ctx: BuildContext): Promise<StorefrontDocument> {
  const entries = await q.listFaq(ctx.school.id);
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

export async function homeDocument(ctx: BuildContext): Promise<StorefrontDocument> {
  const id = ctx.school.id;
  const [home, courses, plans, events, posts, downloads, categories, lecturers] = await Promise.all([
    q.findHome(id),
    q.listCourses(id),
    q.listPlans(id),
    q.listEvents(id),
    q.listPosts(id),
    q.listDownloads(id),
    q.listCategories(id),
    q.listLecturers(id),
  ]);
  const upcoming = events.filter((e) => e.endsAt >= ctx.now).slice(0, HOME_LIST_LIMIT);
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
    body: home?.body ?? "",
    sections,
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
export function buildDocument(ctx: BuildContext, kind: DocumentKind, slug?: string): Promise<StorefrontDocument | null> {
  const s = slug ?? "";
  switch (kind) {
    case "home":
      return homeDocument(ctx);
    case "faq":
      return faqDocument(ctx);
    case "course_index":
      return courseIndexDocument(ctx);
    case "lecturer_index":
      return lecturerIndexDocument(ctx);
    case "course":
      return courseDocument(ctx, s);
    case "post":
      return postDocument(ctx, s);
    case "event":
      return eventDocument(ctx, s);
    case "digital_download":
      return downloadDocument(ctx, s);
    case "plan":
      return planDocument(ctx, s);
    case "category":
      return categoryDocument(ctx, s);
    case "lecturer":
      return lecturerDocument(ctx, s);
  }
}

// ─── Everything public, for llms.txt and llms-full.txt ──────────────────────────

export interface CatalogEntry {
  kind: DocumentKind;
  slug?: string;
}

/** Sections listing every public item (no limits), in llms.txt order. */
export async function catalogSections(ctx: BuildContext): Promise<Section[]> {
  const id = ctx.school.id;
  const [courses, plans, events, posts, downloads, categories, lecturers] = await Promise.all([
    q.listCourses(id),
    q.listPlans(id),
    q.listEvents(id),
    q.listPosts(id),
    q.listDownloads(id),
    q.listCategories(id),
    q.listLecturers(id),
  ]);
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

/** Every public document of the school, pages first, then items in catalog order. */
export async function allDocuments(ctx: BuildContext): Promise<StorefrontDocument[]> {
  const pages = await Promise.all([homeDocument(ctx), faqDocument(ctx), courseIndexDocument(ctx), lecturerIndexDocument(ctx)]);
  const id = ctx.school.id;
  const [courses, plans, events, posts, downloads, categories, lecturers] = await Promise.all([
    q.listCourses(id),
    q.listPlans(id),
    q.listEvents(id),
    q.listPosts(id),
    q.listDownloads(id),
    q.listCategories(id),
    q.listLecturers(id),
  ]);
  const entries: CatalogEntry[] = [
    ...courses.map((r) => ({ kind: "course" as const, slug: r.slug })),
    ...plans.map((r) => ({ kind: "plan" as const, slug: r.slug })),
    ...events.map((r) => ({ kind: "event" as const, slug: r.slug })),
    ...posts.map((r) => ({ kind: "post" as const, slug: r.slug })),
    ...downloads.map((r) => ({ kind: "digital_download" as const, slug: r.slug })),
    ...categories.map((r) => ({ kind: "category" as const, slug: r.slug })),
    ...lecturers.map((r) => ({ kind: "lecturer" as const, slug: r.slug })),
  ];
  const items = await Promise.all(entries.map((e) => buildDocument(ctx, e.kind, e.slug)));
  return [...pages, ...items.filter((d): d is StorefrontDocument => d !== null)];
}
