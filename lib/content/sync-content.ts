import { randomUUID } from "node:crypto";
import type { Prisma } from "../db/generated/client";
import { ContentError, type ContentProblem } from "./errors";
import type { ContentDownloadFile } from "./download-files";
import { storedImage, type ContentImageFile } from "./images";
import { DOWNLOAD_FILE_PATH } from "./schemas";
import type { ContentFolder, ContentItem, ItemKind } from "./read-folder";
import { ITEM_KINDS, KIND_DIRS } from "./read-folder";

type Tx = Prisma.TransactionClient;

export interface ContentChange {
  kind: ItemKind | "school" | "home" | "faq" | "image" | "file";
  /** Slug, the question of an FAQ entry, or an image's or a download file's name. */
  key: string;
  action: "create" | "update" | "unpublish";
  fields: string[];
}

type Row = Record<string, unknown> & { id: string; slug: string; status: string };
type Fields = Record<string, unknown>;

interface Delegate {
  findMany(args: unknown): Promise<Row[]>;
  findFirst(args: unknown): Promise<{ schoolId: string } | null>;
  create(args: { data: Fields }): Promise<unknown>;
  update(args: { where: { id: string }; data: Fields }): Promise<unknown>;
}

function delegate(tx: Tx, kind: ItemKind): Delegate {
  const map = {
    categories: tx.category,
    lecturers: tx.lecturer,
    courses: tx.course,
    posts: tx.post,
    events: tx.event,
    downloads: tx.digitalDownload,
    plans: tx.membershipPlan,
  } as const;
  return map[kind] as unknown as Delegate;
}

/** Values as the database returns them, in a form two sides can be compared in. */
function comparable(v: unknown): unknown {
  if (v instanceof Date) return v.getTime();
  if (v !== null && typeof v === "object" && "toFixed" in v && typeof (v as { toFixed: unknown }).toFixed === "function") {
    return (v as { toFixed(n: number): string }).toFixed(2);
  }
  if (Array.isArray(v)) return JSON.stringify(v);
  return v;
}

function changedFields(row: Fields, desired: Fields): string[] {
  return Object.keys(desired).filter((k) => comparable(row[k]) !== comparable(desired[k]));
}

interface Refs {
  category: Map<string, string>;
  lecturer: Map<string, string>;
  user: Map<string, string>;
  images: Map<string, ContentImageFile>;
  files: Map<string, ContentDownloadFile>;
}

const ref = (map: Map<string, string>, slug: string | null) => (slug === null ? null : map.get(slug)!);

/** The database fields an item's file asks for (references already resolved to ids). */
function desiredFields(kind: ItemKind, item: ContentItem<unknown>, refs: Refs): Fields {
  const body = item.body;
  switch (kind) {
    case "categories": {
      const d = (item as ContentItem<import("./schemas").CategoryFile>).data;
      return { slug: item.slug, name: d.name, description: body, status: d.status, position: d.position };
    }
    case "lecturers": {
      const d = (item as ContentItem<import("./schemas").LecturerFile>).data;
      return {
        slug: item.slug, name: d.name, headline: d.headline, bio: body, avatarUrl: storedImage(d.avatarUrl, refs.images),
        userId: d.user === null ? null : refs.user.get(d.user)!, status: d.status, position: d.position,
      };
    }
    case "courses": {
      const d = (item as ContentItem<import("./schemas").CourseFile>).data;
      return {
        slug: item.slug, title: d.title, summary: d.summary, body, level: d.level, durationMinutes: d.durationMinutes,
        price: d.price, currency: d.currency, imageUrl: storedImage(d.imageUrl, refs.images), categoryId: ref(refs.category, d.category),
        status: d.status, position: d.position, publishedAt: d.publishedAt,
      };
    }
    case "posts": {
      const d = (item as ContentItem<import("./schemas").PostFile>).data;
      return {
        slug: item.slug, title: d.title, excerpt: d.excerpt, body, imageUrl: storedImage(d.imageUrl, refs.images), authorId: ref(refs.lecturer, d.author),
        categoryId: ref(refs.category, d.category), status: d.status, publishedAt: d.publishedAt,
      };
    }
    case "events": {
      const d = (item as ContentItem<import("./schemas").EventFile>).data;
      return {
        slug: item.slug, title: d.title, summary: d.summary, body, startsAt: d.startsAt, endsAt: d.endsAt, timezone: d.timezone,
        location: d.location, onlineUrl: d.onlineUrl, imageUrl: storedImage(d.imageUrl, refs.images), price: d.price, currency: d.currency,
        categoryId: ref(refs.category, d.category), status: d.status,
      };
    }
    case "downloads": {
      const d = (item as ContentItem<import("./schemas").DownloadFile>).data;
      // A file of files/ names the download's file; read-folder.ts checked it is there.
      const file = d.file === null ? null : refs.files.get(DOWNLOAD_FILE_PATH.exec(d.file)![1]!)!;
      return {
        slug: item.slug, title: d.title, summary: d.summary, body, price: d.price, currency: d.currency,
        fileName: file ? file.name : d.fileName, fileSizeBytes: file ? file.bytes.length : d.fileSizeBytes, fileSha256: file?.sha256 ?? null,
        categoryId: ref(refs.category, d.category), status: d.status,
      };
    }
    case "plans": {
      const d = (item as ContentItem<import("./schemas").PlanFile>).data;
      return {
        slug: item.slug, name: d.name, description: body, planType: d.planType, interval: d.interval, intervalCount: d.intervalCount,
        price: d.price, currency: d.currency, lengthCount: d.lengthCount, lengthInterval: d.lengthInterval,
        fixedEndAt: d.fixedEndAt, trialDays: d.trialDays, status: d.status, position: d.position,
      };
    }
  }
}

interface Planned {
  kind: ItemKind;
  item: ContentItem<{ id?: string }>;
  id: string;
  existing: Row | null;
}

/**
 * Makes a school's content match a folder: items are upserted by slug (a file's `id` keeps ids
 * stable across databases and lets a renamed file keep its row), an item whose file is gone is
 * unpublished (status draft), never deleted. Every problem is collected before anything is
 * written; with `dryRun` nothing is written at all. Run it inside a transaction.
 */
export async function syncContent(options: { tx: Tx; schoolId: string; folder: ContentFolder; dryRun?: boolean }): Promise<ContentChange[]> {
  const { tx, schoolId, folder } = options;
  const problems: ContentProblem[] = [];
  const changes: ContentChange[] = [];

  // 1. Match every file to a row: by slug, else by the id it names (a rename).
  const existingByKind = new Map<ItemKind, Row[]>();
  const planned: Planned[] = [];
  for (const kind of ITEM_KINDS) {
    const d = delegate(tx, kind);
    const rows = await d.findMany({
      where: { schoolId },
      ...(kind === "courses" ? { include: { lecturers: { orderBy: { position: "asc" } } } } : {}),
    });
    existingByKind.set(kind, rows);
    const bySlug = new Map(rows.map((r) => [r.slug, r]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const item of folder[kind] as ContentItem<{ id?: string }>[]) {
      const fileId = item.data.id;
      let existing = bySlug.get(item.slug) ?? null;
      if (existing && fileId && existing.id !== fileId) {
        problems.push({ file: item.file, line: item.lineOf(["id"]), field: "id", message: `does not match the existing ${KIND_DIRS[kind].dir} item "${item.slug}" (id ${existing.id})` });
        continue;
      }
      if (!existing && fileId) {
        existing = byId.get(fileId) ?? null;
        if (existing && folder[kind].some((other) => other.slug === existing!.slug)) {
          problems.push({ file: item.file, line: item.lineOf(["id"]), field: "id", message: `belongs to "${existing.slug}", which is also in the folder` });
          continue;
        }
        if (!existing && (await d.findFirst({ where: { id: fileId } }))) {
          problems.push({ file: item.file, line: item.lineOf(["id"]), field: "id", message: "is used by another school's item" });
          continue;
        }
      }
      planned.push({ kind, item, id: existing?.id ?? fileId ?? randomUUID(), existing });
    }
  }

  // 2. Resolve references: slugs within the folder, lecturer accounts by email.
  const refs: Refs = {
    category: new Map(planned.filter((p) => p.kind === "categories").map((p) => [p.item.slug, p.id])),
    lecturer: new Map(planned.filter((p) => p.kind === "lecturers").map((p) => [p.item.slug, p.id])),
    user: new Map(),
    images: folder.images,
    files: folder.files,
  };
  const emails = [...new Set(folder.lecturers.map((l) => l.data.user).filter((e): e is string => e !== null))];
  if (emails.length) {
    const users = await tx.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true, lecturer: { select: { id: true } } } });
    for (const u of users) refs.user.set(u.email, u.id);
    for (const p of planned.filter((x) => x.kind === "lecturers")) {
      const email = (p.item.data as { user: string | null }).user;
      if (email === null) continue;
      const user = users.find((u) => u.email === email);
      if (!user) problems.push({ file: p.item.file, line: p.item.lineOf(["user"]), field: "user", message: `no account with email ${email}` });
      else if (user.lecturer && user.lecturer.id !== p.id) {
        problems.push({ file: p.item.file, line: p.item.lineOf(["user"]), field: "user", message: `${email} is already another lecturer's account` });
      }
    }
  }
  if (problems.length) throw new ContentError(problems);

  // 3. What would change.
  const writes: (() => Promise<unknown>)[] = [];
  for (const p of planned) {
    const d = delegate(tx, p.kind);
    const desired = desiredFields(p.kind, p.item, refs);
    const lecturerIds = p.kind === "courses" ? (p.item.data as { lecturers: string[] }).lecturers.map((s) => refs.lecturer.get(s)!) : null;
    if (!p.existing) {
      changes.push({ kind: p.kind, key: p.item.slug, action: "create", fields: [] });
      writes.push(() => d.create({ data: { id: p.id, schoolId, ...desired } }));
    } else {
      const fields = changedFields(p.existing, desired);
      const current = (p.existing.lecturers as { lecturerId: string }[] | undefined)?.map((l) => l.lecturerId);
      const lecturersChanged = lecturerIds !== null && JSON.stringify(current) !== JSON.stringify(lecturerIds);
      if (lecturersChanged) fields.push("lecturers");
      if (fields.length) {
        changes.push({ kind: p.kind, key: p.item.slug, action: "update", fields });
        const data = Object.fromEntries(fields.filter((f) => f !== "lecturers").map((f) => [f, desired[f]]));
        if (Object.keys(data).length) writes.push(() => d.update({ where: { id: p.id }, data }));
      }
      if (!lecturersChanged) continue;
    }
    if (lecturerIds !== null && (lecturerIds.length || p.existing)) {
      writes.push(async () => {
        await tx.courseLecturer.deleteMany({ where: { courseId: p.id } });
        await tx.courseLecturer.createMany({ data: lecturerIds.map((lecturerId, position) => ({ courseId: p.id, lecturerId, position })) });
      });
    }
  }
  for (const kind of ITEM_KINDS) {
    const kept = new Set(planned.filter((p) => p.kind === kind).map((p) => p.id));
    for (const row of existingByKind.get(kind)!) {
      if (kept.has(row.id) || row.status === "draft") continue;
      changes.push({ kind, key: row.slug, action: "unpublish", fields: ["status"] });
      writes.push(() => delegate(tx, kind).update({ where: { id: row.id }, data: { status: "draft" } }));
    }
  }

  await planImages(tx, schoolId, folder, changes, writes);
  await planDownloadFiles(tx, schoolId, folder, changes, writes);
  await planSchoolAndHome(tx, schoolId, folder, changes, writes);
  await planFaq(tx, schoolId, folder, changes, writes);

  if (!options.dryRun) for (const write of writes) await write();
  return changes;
}

/**
 * Content-addressed blobs (images, download files) the school does not hold yet, each once, recorded
 * as created: a changed file is a new row under its new hash, never an update, and a row no longer
 * named is kept.
 */
async function newBlobs<T extends { sha256: string; name: string }>(options: {
  kind: "image" | "file";
  blobs: Map<string, T>;
  stored: () => Promise<{ sha256: string }[]>;
  changes: ContentChange[];
}): Promise<T[]> {
  if (!options.blobs.size) return [];
  const have = new Set((await options.stored()).map((r) => r.sha256));
  const fresh = new Map<string, T>();
  for (const blob of options.blobs.values()) if (!have.has(blob.sha256) && !fresh.has(blob.sha256)) fresh.set(blob.sha256, blob);
  for (const blob of fresh.values()) options.changes.push({ kind: options.kind, key: blob.name, action: "create", fields: [] });
  return [...fresh.values()];
}

/** Images: a new hash is a new row, so every /media/ address stays valid for pages cached before the import. */
async function planImages(tx: Tx, schoolId: string, folder: ContentFolder, changes: ContentChange[], writes: (() => Promise<unknown>)[]) {
  const stored = () => tx.contentImage.findMany({ where: { schoolId }, select: { sha256: true } });
  const fresh = await newBlobs<ContentImageFile>({ kind: "image", blobs: folder.images, stored, changes });
  if (fresh.length) {
    writes.push(() =>
      tx.contentImage.createMany({
        data: fresh.map((img) => ({ schoolId, sha256: img.sha256, name: img.name, contentType: img.contentType, bytes: new Uint8Array(img.bytes) })),
      }),
    );
  }
}

/** Download files are kept like images (newBlobs), so a changed file's download points at its new row: buyers get the new version, as on Gumroad. */
async function planDownloadFiles(tx: Tx, schoolId: string, folder: ContentFolder, changes: ContentChange[], writes: (() => Promise<unknown>)[]) {
  const stored = () => tx.contentFile.findMany({ where: { schoolId }, select: { sha256: true } });
  const fresh = await newBlobs<ContentDownloadFile>({ kind: "file", blobs: folder.files, stored, changes });
  // One row per statement: a single multi-row insert of several MiB-sized files is one huge message.
  for (const f of fresh) {
    writes.push(() => tx.contentFile.create({ data: { schoolId, sha256: f.sha256, name: f.name, contentType: f.contentType, bytes: new Uint8Array(f.bytes) } }));
  }
}

async function planSchoolAndHome(tx: Tx, schoolId: string, folder: ContentFolder, changes: ContentChange[], writes: (() => Promise<unknown>)[]) {
  if (folder.school) {
    const school = await tx.school.findUniqueOrThrow({ where: { id: schoolId } });
    const { data } = folder.school;
    const desired = { ...data, logoUrl: storedImage(data.logoUrl, folder.images), faviconUrl: storedImage(data.faviconUrl, folder.images) };
    const fields = changedFields(school, desired);
    if (fields.length) {
      changes.push({ kind: "school", key: school.subdomain, action: "update", fields });
      writes.push(() => tx.school.update({ where: { id: schoolId }, data: Object.fromEntries(fields.map((f) => [f, desired[f as keyof typeof desired]])) }));
    }
  }
  if (folder.home) {
    const desired = { title: folder.home.data.title, tagline: folder.home.data.tagline, body: folder.home.body };
    const home = await tx.homePage.findUnique({ where: { schoolId } });
    const fields = home ? changedFields(home, desired) : [];
    if (!home) changes.push({ kind: "home", key: "home", action: "create", fields: [] });
    else if (fields.length) changes.push({ kind: "home", key: "home", action: "update", fields });
    if (!home || fields.length) writes.push(() => tx.homePage.upsert({ where: { schoolId }, create: { schoolId, ...desired }, update: desired }));
  }
}

async function planFaq(tx: Tx, schoolId: string, folder: ContentFolder, changes: ContentChange[], writes: (() => Promise<unknown>)[]) {
  const rows = await tx.faqEntry.findMany({ where: { schoolId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });
  const byQuestion = new Map(rows.map((r) => [r.question, r]));
  const kept = new Set<string>();
  (folder.faq ?? []).forEach((entry, i) => {
    const desired = { question: entry.question, answer: entry.answer, status: "published" as const, position: i + 1 };
    const row = byQuestion.get(entry.question);
    if (!row) {
      changes.push({ kind: "faq", key: entry.question, action: "create", fields: [] });
      writes.push(() => tx.faqEntry.create({ data: { schoolId, ...desired } }));
      return;
    }
    kept.add(row.id);
    const fields = changedFields(row, desired);
    if (fields.length) {
      changes.push({ kind: "faq", key: entry.question, action: "update", fields });
      writes.push(() => tx.faqEntry.update({ where: { id: row.id }, data: desired }));
    }
  });
  for (const row of rows) {
    if (kept.has(row.id) || row.status === "draft") continue;
    changes.push({ kind: "faq", key: row.question, action: "unpublish", fields: ["status"] });
    writes.push(() => tx.faqEntry.update({ where: { id: row.id }, data: { status: "draft" } }));
  }
}
