import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import type { Db } from "../db/client";
import { parseMediaPath } from "./images";

type Fields = Record<string, unknown>;
type Money = { toFixed(n: number): string } | null;

// Defaults an import fills in, left out of exported files so they say only what differs.
const DEFAULTS: Fields = {
  status: "published",
  position: 0,
  intervalCount: 1,
  timezone: "UTC",
  enterpriseTraining: false,
  contentSignalSearch: true,
  contentSignalAiInput: true,
  contentSignalAiTrain: false,
};

const iso = (d: Date | null) => (d ? d.toISOString().replace(".000Z", "Z") : null);
const money = (v: Money) => (v === null ? null : Number(v.toFixed(2)));

function frontmatter(fields: Fields): string {
  const kept = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => {
      if (v === null || v === undefined || v === "") return false;
      if (Array.isArray(v) && v.length === 0) return false;
      return DEFAULTS[k] !== v;
    }),
  );
  return stringify(kept, { lineWidth: 0 });
}

const markdownFile = (fields: Fields, body: string) => `---\n${frontmatter(fields)}---\n\n${body}`;

/** A school's content as the files of a content folder (relative path → text, or bytes for images/ and files/). */
export async function renderContentFolder(options: { db: Db; schoolId: string }): Promise<Map<string, string | Buffer>> {
  const { db, schoolId } = options;
  const where = { schoolId };
  const [school, home, faq, categories, lecturers, courses, posts, events, downloads, plans] = await Promise.all([
    db.school.findUniqueOrThrow({ where: { id: schoolId } }),
    db.homePage.findUnique({ where }),
    db.faqEntry.findMany({ where: { schoolId, status: "published" }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] }),
    db.category.findMany({ where }),
    db.lecturer.findMany({ where, include: { user: { select: { email: true } } } }),
    db.course.findMany({ where, include: { lecturers: { orderBy: { position: "asc" } } } }),
    db.post.findMany({ where }),
    db.event.findMany({ where }),
    db.digitalDownload.findMany({ where }),
    db.membershipPlan.findMany({ where }),
  ]);
  const stored = new Map((await db.contentImage.findMany({ where })).map((i) => [i.sha256, i]));
  const storedFiles = new Map((await db.contentFile.findMany({ where })).map((f) => [f.sha256, f]));
  const downloadFiles = new Map<string, Buffer>();
  // A download's stored file goes back to files/<its name>; fileName and fileSizeBytes come from it.
  const fileOf = (d: { fileSha256: string | null; fileName: string | null }) => {
    const row = d.fileSha256 ? storedFiles.get(d.fileSha256) : undefined;
    if (!row || !d.fileName) return null;
    downloadFiles.set(d.fileName, Buffer.from(row.bytes));
    return `files/${d.fileName}`;
  };
  const imageFiles = new Map<string, Buffer>();
  // A stored image goes back to images/<the name it was imported as>; a URL stays a URL.
  const img = (value: string | null) => {
    const media = value === null ? null : parseMediaPath(value);
    const row = media ? stored.get(media.sha256) : undefined;
    if (!media || !row) return value;
    imageFiles.set(media.name, Buffer.from(row.bytes));
    return `images/${media.name}`;
  };
  const categorySlug = new Map(categories.map((c) => [c.id, c.slug]));
  const lecturerSlug = new Map(lecturers.map((l) => [l.id, l.slug]));
  const cat = (id: string | null) => (id ? (categorySlug.get(id) ?? null) : null);
  const files = new Map<string, string | Buffer>();

  files.set(
    "school.yaml",
    frontmatter({
      name: school.name,
      description: school.description,
      enterpriseTraining: school.enterpriseTraining,
      brandColor: school.brandColor,
      contactEmail: school.contactEmail,
      logoUrl: img(school.logoUrl),
      faviconUrl: img(school.faviconUrl),
      contentSignalSearch: school.contentSignalSearch,
      contentSignalAiInput: school.contentSignalAiInput,
      contentSignalAiTrain: school.contentSignalAiTrain,
    }),
  );
  // One file per row of a kind, `<folder>/<slug>.md`: the frontmatter the import reads, then the body.
  const put = <T extends { slug: string }>(folder: string, rows: T[], front: (row: T) => Record<string, unknown>, body: (row: T) => string) => {
    for (const row of rows) files.set(`${folder}/${row.slug}.md`, markdownFile(front(row), body(row)));
  };
  if (home) files.set("home.md", markdownFile({ title: home.title, tagline: home.tagline }, home.body));
  if (faq.length) files.set("faq.md", faq.map((f) => `## ${f.question}\n\n${f.answer}\n`).join("\n"));
  put("categories", categories, (c) => ({ id: c.id, name: c.name, status: c.status, position: c.position }), (c) => c.description);
  put("lecturers", lecturers, (l) => ({ id: l.id, name: l.name, headline: l.headline, avatarUrl: img(l.avatarUrl), user: l.user?.email ?? null, status: l.status, position: l.position }), (l) => l.bio);
  put("courses", courses, (c) => ({
    id: c.id, title: c.title, summary: c.summary, level: c.level, durationMinutes: c.durationMinutes, price: money(c.price),
    currency: c.currency, imageUrl: img(c.imageUrl), category: cat(c.categoryId),
    lecturers: c.lecturers.map((x) => lecturerSlug.get(x.lecturerId)).filter(Boolean), status: c.status, position: c.position,
    publishedAt: iso(c.publishedAt),
  }), (c) => c.body);
  put("posts", posts, (p) => ({
    id: p.id, title: p.title, excerpt: p.excerpt, imageUrl: img(p.imageUrl), author: p.authorId ? (lecturerSlug.get(p.authorId) ?? null) : null,
    category: cat(p.categoryId), status: p.status, publishedAt: iso(p.publishedAt),
  }), (p) => p.body);
  put("events", events, (e) => ({
    id: e.id, title: e.title, summary: e.summary, startsAt: iso(e.startsAt), endsAt: iso(e.endsAt), timezone: e.timezone,
    location: e.location, onlineUrl: e.onlineUrl, imageUrl: img(e.imageUrl), price: money(e.price), currency: e.currency, category: cat(e.categoryId), status: e.status,
  }), (e) => e.body);
  put("digital-downloads", downloads, (d) => {
    const file = fileOf(d);
    return {
      id: d.id, title: d.title, summary: d.summary, price: money(d.price), currency: d.currency, file,
      fileName: file ? null : d.fileName, fileSizeBytes: file ? null : d.fileSizeBytes, category: cat(d.categoryId), status: d.status,
    };
  }, (d) => d.body);
  put("plans", plans, (p) => ({
    id: p.id, name: p.name, planType: p.planType, interval: p.interval, intervalCount: p.intervalCount, price: money(p.price),
    currency: p.currency, lengthCount: p.lengthCount, lengthInterval: p.lengthInterval, fixedEndAt: iso(p.fixedEndAt),
    trialDays: p.trialDays, status: p.status, position: p.position,
  }), (p) => p.description);
  for (const [name, bytes] of [...imageFiles].sort(([a], [b]) => a.localeCompare(b))) files.set(`images/${name}`, bytes);
  for (const [name, bytes] of [...downloadFiles].sort(([a], [b]) => a.localeCompare(b))) files.set(`files/${name}`, bytes);
  return files;
}

/** Writes a school's content folder; returns the files written. Existing files of the same name are replaced. */
export async function exportContent(options: { db: Db; schoolId: string; dir: string }): Promise<string[]> {
  const files = await renderContentFolder(options);
  for (const [rel, text] of files) {
    const target = path.join(options.dir, rel);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  return [...files.keys()];
}
