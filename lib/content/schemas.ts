import { z } from "zod";

// Frontmatter of each kind of content file. Field names are the API's (camelCase); references
// name other items by slug. Every field but the required ones has the default an export omits,
// so a file says only what differs from the default and import(export(x)) writes nothing.

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const id = z.string().regex(UUID, "must be a UUID (or leave it out and one is made)").optional();
const slugRef = z.string().regex(SLUG, "must be the slug (file name without .md) of an item");
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const status = z.enum(["published", "draft", "hidden"]).default("published");
const position = z.number().int("must be a whole number").min(0).max(1_000_000).default(0);
const url = z.string().url("must be an absolute URL").max(2048);
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

/** A file of the folder's images/ folder, by its path from the folder (`images/logo.svg`). */
export const IMAGE_PATH = /^images\/([a-z0-9]+(?:[-_.][a-z0-9]+)*\.(png|jpe?g|webp|gif|svg|ico))$/;
const IMAGE_HINT = "must be a file in the folder's images/ folder (images/cover.png: lower-case name, .png, .jpg, .webp, .gif, .svg or .ico) or an absolute URL";
/**
 * The types a download's file may be, by extension (lib/content/download-files.ts checks the
 * bytes): documents, archives, e-books, audio and plain text. Nothing a browser runs (HTML, SVG,
 * scripts), though the file is only ever sent as an attachment.
 */
export const DOWNLOAD_TYPES: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  epub: "application/epub+zip",
  zip: "application/zip",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  mp3: "audio/mpeg",
  txt: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};
const DOWNLOAD_EXTS = Object.keys(DOWNLOAD_TYPES);
/** A download's file by its path from the folder (`files/guide.pdf`). */
export const DOWNLOAD_FILE_PATH = new RegExp(`^files/([a-z0-9]+(?:[-_.][a-z0-9]+)*\\.(${DOWNLOAD_EXTS.join("|")}))$`);
export const DOWNLOAD_FILE_HINT = `lower-case letters, digits, - _ . and one of .${DOWNLOAD_EXTS.join(", .")}`;
/** An image: a file of the folder (stored with the content and served by the app) or an absolute URL. */
const image = z.string().max(2048).refine((v) => IMAGE_PATH.test(v) || url.safeParse(v).success, IMAGE_HINT);

/** A money amount as the database stores it (at most 10 integer digits, 2 decimals), as text "49.00". */
export const price = z.union([z.number(), z.string()], { error: "must be a number, e.g. 49 or 49.90" }).transform((v, ctx) => {
  const s = typeof v === "number" ? String(v) : v.trim();
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(s) || (typeof v === "number" && !Number.isFinite(v))) {
    ctx.addIssue({ code: "custom", message: "must be a number of at most two decimals, e.g. 49 or 49.90" });
    return z.NEVER;
  }
  return Number(s).toFixed(2);
});
const currency = z.string().regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code such as USD");

const dateTime = z.string({ error: "must be a date and time, e.g. 2026-01-15T09:00:00Z" }).transform((v, ctx) => {
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v));
  if (!ok) {
    ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date, e.g. 2026-01-15 or 2026-01-15T09:00:00Z" });
    return z.NEVER;
  }
  return new Date(v);
});

const timezone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, "must be an IANA time zone such as Europe/Lisbon");

const interval = z.enum(["day", "week", "month", "year"]);

const pricePair = <T extends { price: string | null; currency: string | null }>(v: T, ctx: z.RefinementCtx) => {
  if ((v.price === null) !== (v.currency === null)) {
    ctx.addIssue({ code: "custom", path: [v.price === null ? "price" : "currency"], message: "price and currency go together" });
  }
};

export const schoolSchema = z.strictObject({
  name: text(200).min(1, "must not be empty"),
  description: text(2000).default(""),
  enterpriseTraining: z.boolean().default(false),
  brandColor: nullable(z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #1f6feb")),
  contactEmail: nullable(z.email("must be an email address").max(320)),
  logoUrl: nullable(image),
  faviconUrl: nullable(image),
  // Content Signals (docs/decisions.md, issue 18): search and AI input allowed, AI training not, unless the school says otherwise.
  contentSignalSearch: z.boolean().default(true),
  contentSignalAiInput: z.boolean().default(true),
  contentSignalAiTrain: z.boolean().default(false),
});

export const homeSchema = z.strictObject({
  title: text(200).min(1, "must not be empty"),
  tagline: text(500).default(""),
});

export const categorySchema = z.strictObject({ id, name: text(200).min(1, "must not be empty"), status, position });

export const lecturerSchema = z.strictObject({
  id,
  name: text(200).min(1, "must not be empty"),
  headline: text(300).default(""),
  avatarUrl: nullable(image),
  // The member account of the lecturer, by email (it must exist).
  user: nullable(z.email("must be the email of an existing account").toLowerCase()),
  status,
  position,
});

export const courseSchema = z
  .strictObject({
    id,
    title: text(300).min(1, "must not be empty"),
    summary: text(1000).default(""),
    level: nullable(text(100)),
    durationMinutes: nullable(z.number().int("must be a whole number of minutes").positive().max(1_000_000)),
    price: nullable(price),
    currency: nullable(currency),
    imageUrl: nullable(image),
    category: nullable(slugRef),
    lecturers: z.array(slugRef).default([]),
    status,
    position,
    publishedAt: nullable(dateTime),
  })
  .superRefine(pricePair);

export const postSchema = z.strictObject({
  id,
  title: text(300).min(1, "must not be empty"),
  excerpt: text(1000).default(""),
  imageUrl: nullable(image),
  author: nullable(slugRef),
  category: nullable(slugRef),
  status,
  publishedAt: nullable(dateTime),
});

export const eventSchema = z
  .strictObject({
    id,
    title: text(300).min(1, "must not be empty"),
    summary: text(1000).default(""),
    startsAt: dateTime,
    endsAt: dateTime,
    timezone: timezone.default("UTC"),
    location: nullable(text(500)),
    onlineUrl: nullable(url),
    imageUrl: nullable(image),
    price: nullable(price),
    currency: nullable(currency),
    category: nullable(slugRef),
    status,
  })
  .superRefine((v, ctx) => {
    pricePair(v, ctx);
    if (v.endsAt < v.startsAt) ctx.addIssue({ code: "custom", path: ["endsAt"], message: "must not be before startsAt" });
  });

export const downloadSchema = z.strictObject({
  id,
  title: text(300).min(1, "must not be empty"),
  summary: text(1000).default(""),
  price,
  currency,
  // The file a member with access downloads; fileName and fileSizeBytes then come from it.
  file: nullable(z.string().max(300).regex(DOWNLOAD_FILE_PATH, `must be a file in the folder's files/ folder, e.g. files/guide.pdf (its name: ${DOWNLOAD_FILE_HINT})`)),
  fileName: nullable(text(255)),
  fileSizeBytes: nullable(z.number().int("must be a whole number of bytes").min(0).max(Number.MAX_SAFE_INTEGER)),
  category: nullable(slugRef),
  status,
}).superRefine((v, ctx) => {
  if (v.file === null) return;
  for (const field of ["fileName", "fileSizeBytes"] as const) {
    if (v[field] !== null) ctx.addIssue({ code: "custom", path: [field], message: "comes from file: leave it out" });
  }
});

export const planSchema = z
  .strictObject({
    id,
    name: text(200).min(1, "must not be empty"),
    planType: z.enum(["recurring", "fixed_date", "specific_length", "lifetime"]),
    interval: nullable(interval),
    intervalCount: z.number().int("must be a whole number").positive().max(1000).default(1),
    price,
    currency,
    lengthCount: nullable(z.number().int("must be a whole number").positive().max(100_000)),
    lengthInterval: nullable(interval),
    fixedEndAt: nullable(dateTime),
    trialDays: nullable(z.number().int("must be a whole number").positive().max(730)),
    status,
    position,
  })
  .superRefine((v, ctx) => {
    if (v.trialDays !== null && v.planType !== "recurring") ctx.addIssue({ code: "custom", path: ["trialDays"], message: "applies only to a recurring plan" });
    const need = (field: "interval" | "lengthCount" | "lengthInterval" | "fixedEndAt") => {
      if (v[field] === null) ctx.addIssue({ code: "custom", path: [field], message: `is required for a ${v.planType} plan` });
    };
    if (v.planType === "recurring") need("interval");
    if (v.planType === "specific_length") {
      need("lengthCount");
      need("lengthInterval");
    }
    if (v.planType === "fixed_date") need("fixedEndAt");
  });

export const faqSchema = z.strictObject({});

export type SchoolFile = z.infer<typeof schoolSchema>;
export type HomeFile = z.infer<typeof homeSchema>;
export type CategoryFile = z.infer<typeof categorySchema>;
export type LecturerFile = z.infer<typeof lecturerSchema>;
export type CourseFile = z.infer<typeof courseSchema>;
export type PostFile = z.infer<typeof postSchema>;
export type EventFile = z.infer<typeof eventSchema>;
export type DownloadFile = z.infer<typeof downloadSchema>;
export type PlanFile = z.infer<typeof planSchema>;
