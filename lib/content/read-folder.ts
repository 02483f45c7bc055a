import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { ContentError, type ContentProblem } from "./errors";
import { parseMarkdownFile, parseYamlText, type ParsedFile } from "./frontmatter";
import { FILES_DIR, MAX_DOWNLOAD_FILE_BYTES, MAX_DOWNLOAD_FILES_BYTES, readDownloadFile, type ContentDownloadFile } from "./download-files";
import { MAX_IMAGE_BYTES, readImageFile, type ContentImageFile } from "./images";
import * as s from "./schemas";
import { fromServedDialect } from "./served-dialect";

export interface ContentItem<T> {
  slug: string;
  /** Path relative to the folder, with forward slashes. */
  file: string;
  data: T;
  body: string;
  lineOf: ParsedFile["lineOf"];
}

export interface FaqItem {
  question: string;
  answer: string;
  line: number;
}

export interface ContentFolder {
  school: { data: s.SchoolFile; lineOf: ParsedFile["lineOf"] } | null;
  home: { data: s.HomeFile; body: string } | null;
  faq: FaqItem[] | null;
  categories: ContentItem<s.CategoryFile>[];
  lecturers: ContentItem<s.LecturerFile>[];
  courses: ContentItem<s.CourseFile>[];
  posts: ContentItem<s.PostFile>[];
  events: ContentItem<s.EventFile>[];
  downloads: ContentItem<s.DownloadFile>[];
  plans: ContentItem<s.PlanFile>[];
  /** The files of images/, by name. */
  images: Map<string, ContentImageFile>;
  /** The files of files/ (downloads' files), by name. */
  files: Map<string, ContentDownloadFile>;
}

/** Folder name of each kind of item, and the schema of its frontmatter. */
export const KIND_DIRS = {
  categories: { dir: "categories", schema: s.categorySchema },
  lecturers: { dir: "lecturers", schema: s.lecturerSchema },
  courses: { dir: "courses", schema: s.courseSchema },
  posts: { dir: "posts", schema: s.postSchema },
  events: { dir: "events", schema: s.eventSchema },
  downloads: { dir: "digital-downloads", schema: s.downloadSchema },
  plans: { dir: "plans", schema: s.planSchema },
} as const;
export type ItemKind = keyof typeof KIND_DIRS;
export const ITEM_KINDS = Object.keys(KIND_DIRS) as ItemKind[];

const ROOT_FILES = new Set(["school.yaml", "home.md", "faq.md", "README.md"]);
const IMAGES_DIR = "images";
const MAX_FILE_BYTES = 1024 * 1024;
// The seed reads the demo folders at run time; next.config.mjs ships content/ with every function
// (outputFileTracingIncludes), so tracing is told to leave these reads alone.

function zodProblems(file: string, error: z.ZodError, lineOf: ParsedFile["lineOf"]): ContentProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const key = issue.keys[0]!;
      return { file, line: lineOf([...issue.path, key]), field: [...issue.path, key].join("."), message: "is not a known field" };
    }
    const field = issue.path.map(String).join(".") || null;
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    return { file, line: lineOf(issue.path), field, message: missing ? "is required" : issue.message };
  });
}

async function readText(dir: string, rel: string): Promise<string | null> {
  try {
    const buf = await readFile(/*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ dir, rel));
    if (buf.length > MAX_FILE_BYTES) throw new ContentError([{ file: rel, line: 1, field: null, message: "is larger than 1 MiB" }]);
    return buf.toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

function parseFaq(text: string, file: string, problems: ContentProblem[]): FaqItem[] {
  let body = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  let firstLine = 1;
  if (body.startsWith("---\n")) {
    const raw = parseMarkdownFile(body, file);
    if ("message" in raw) return (problems.push(raw), []);
    const parsed = fromServedDialect({ kind: "faq", file, parsed: raw });
    problems.push(...parsed.problems);
    const checked = s.faqSchema.safeParse(parsed.data);
    if (!checked.success) problems.push(...zodProblems(file, checked.error, parsed.lineOf));
    // Line numbers stay the file's: the lead a copied page loses is counted back in.
    firstLine = body.split("\n").length - parsed.body.split("\n").length + 1;
    body = parsed.body;
  }
  const items: FaqItem[] = [];
  const seen = new Map<string, number>();
  let current: { question: string; line: number; lines: string[] } | null = null;
  const finish = () => {
    if (!current) return;
    const answer = current.lines.join("\n").trim();
    if (!answer) problems.push({ file, line: current.line, field: "answer", message: `the question "${current.question}" has no answer` });
    const dup = seen.get(current.question);
    if (dup !== undefined) problems.push({ file, line: current.line, field: "question", message: `repeats the question on line ${dup}` });
    seen.set(current.question, current.line);
    items.push({ question: current.question, answer, line: current.line });
  };
  body.split("\n").forEach((line, i) => {
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      finish();
      current = { question: heading[1]!.trim(), line: firstLine + i, lines: [] };
    } else if (current) {
      current.lines.push(line);
    } else if (line.trim()) {
      problems.push({ file, line: firstLine + i, field: null, message: "text before the first question (each question is a `## ` heading)" });
    }
  });
  finish();
  return items;
}

async function readKind<K extends ItemKind>(dir: string, kind: K, problems: ContentProblem[]) {
  const { dir: sub, schema } = KIND_DIRS[kind];
  let names: string[];
  try {
    names = (await readdir(/*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ dir, sub), { withFileTypes: true })).filter((e) => !e.name.startsWith(".")).map((e) => e.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const items: ContentItem<z.output<(typeof KIND_DIRS)[K]["schema"]>>[] = [];
  const bySlug = new Map<string, string>();
  const byId = new Map<string, string>();
  for (const name of names.sort()) {
    const file = `${sub}/${name}`;
    const m = /^(.+)\.(md|markdown)$/.exec(name);
    if (!m) {
      problems.push({ file, line: 1, field: null, message: "is not a markdown file (.md)" });
      continue;
    }
    const slug = m[1]!.toLowerCase();
    if (!s.SLUG.test(slug)) {
      problems.push({ file, line: 1, field: "slug", message: "the file name must be a slug: lower-case letters, digits and single hyphens" });
      continue;
    }
    const other = bySlug.get(slug);
    if (other) {
      problems.push({ file, line: 1, field: "slug", message: `duplicate slug "${slug}" (also ${other})` });
      continue;
    }
    bySlug.set(slug, file);
    const raw = parseMarkdownFile((await readText(dir, file)) ?? "", file);
    if ("message" in raw) {
      problems.push(raw);
      continue;
    }
    const parsed = fromServedDialect({ kind, file, parsed: raw });
    if (parsed.problems.length) {
      problems.push(...parsed.problems);
      continue;
    }
    const checked = schema.safeParse(parsed.data);
    if (!checked.success) {
      problems.push(...zodProblems(file, checked.error, parsed.lineOf));
      continue;
    }
    const data = checked.data as z.output<(typeof KIND_DIRS)[K]["schema"]>;
    if (data.id) {
      const dup = byId.get(data.id);
      if (dup) problems.push({ file, line: parsed.lineOf(["id"]), field: "id", message: `is also the id of ${dup}` });
      byId.set(data.id, file);
    }
    items.push({ slug, file, data, body: parsed.body, lineOf: parsed.lineOf });
  }
  return items;
}

/**
 * The files of one of the folder's binary folders (images/, files/), each checked by `read`, by
 * name; a file over `maxBytes` is refused before it is read, and so is everything past `maxTotal`.
 */
async function readStoredFiles<T extends { bytes: Buffer }>(
  dir: string,
  sub: string,
  limits: { maxBytes: number; maxTotal: number },
  read: (name: string, bytes: Buffer) => T | ContentProblem,
  problems: ContentProblem[],
): Promise<Map<string, T>> {
  const files = new Map<string, T>();
  let names: string[];
  try {
    names = (await readdir(/*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ dir, sub))).filter((n) => !n.startsWith("."));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return files;
    throw err;
  }
  let total = 0;
  for (const name of names.sort()) {
    const file = `${sub}/${name}`;
    const target = /*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ dir, sub, name);
    const info = await stat(target);
    if (!info.isFile()) {
      problems.push({ file, line: 1, field: null, message: "is not a file" });
      continue;
    }
    if (info.size > limits.maxBytes) {
      problems.push({ file, line: 1, field: null, message: `is larger than ${limits.maxBytes / (1024 * 1024)} MiB` });
      continue;
    }
    total += info.size;
    if (total > limits.maxTotal) {
      problems.push({ file, line: 1, field: null, message: `${sub}/ holds more than ${limits.maxTotal / (1024 * 1024)} MiB` });
      break;
    }
    const checked = read(name, await readFile(target));
    if ("message" in checked) problems.push(checked);
    else files.set(name, checked);
  }
  return files;
}

/** A download's `file` must be in files/; fileName and fileSizeBytes come from it (sync-content.ts). */
function checkDownloadFiles(folder: ContentFolder, problems: ContentProblem[]) {
  for (const d of folder.downloads) {
    const m = d.data.file === null ? null : s.DOWNLOAD_FILE_PATH.exec(d.data.file);
    if (m && !folder.files.has(m[1]!)) problems.push({ file: d.file, line: d.lineOf(["file"]), field: "file", message: `no file ${d.data.file} in the folder` });
  }
}

function checkImages(folder: ContentFolder, problems: ContentProblem[]) {
  const check = (file: string, field: string, value: string | null, lineOf: ParsedFile["lineOf"]) => {
    const m = value === null ? null : s.IMAGE_PATH.exec(value);
    if (m && !folder.images.has(m[1]!)) problems.push({ file, line: lineOf([field]), field, message: `no image ${value} in the folder` });
  };
  if (folder.school) {
    check("school.yaml", "logoUrl", folder.school.data.logoUrl, folder.school.lineOf);
    check("school.yaml", "faviconUrl", folder.school.data.faviconUrl, folder.school.lineOf);
  }
  for (const l of folder.lecturers) check(l.file, "avatarUrl", l.data.avatarUrl, l.lineOf);
  for (const c of folder.courses) check(c.file, "imageUrl", c.data.imageUrl, c.lineOf);
  for (const p of folder.posts) check(p.file, "imageUrl", p.data.imageUrl, p.lineOf);
  for (const e of folder.events) check(e.file, "imageUrl", e.data.imageUrl, e.lineOf);
}

function checkReferences(folder: ContentFolder, problems: ContentProblem[]) {
  const categories = new Set(folder.categories.map((c) => c.slug));
  const lecturers = new Set(folder.lecturers.map((l) => l.slug));
  const ref = (item: ContentItem<unknown>, field: string, slug: string | null, known: Set<string>, what: string, pathKeys: PropertyKey[] = [field]) => {
    if (slug !== null && !known.has(slug)) {
      problems.push({ file: item.file, line: item.lineOf(pathKeys), field, message: `no ${what} with slug "${slug}" (${what === "category" ? "categories" : "lecturers"}/${slug}.md)` });
    }
  };
  for (const c of folder.courses) {
    ref(c, "category", c.data.category, categories, "category");
    c.data.lecturers.forEach((l, i) => ref(c, `lecturers.${i}`, l, lecturers, "lecturer", ["lecturers", i]));
  }
  for (const p of folder.posts) {
    ref(p, "category", p.data.category, categories, "category");
    ref(p, "author", p.data.author, lecturers, "lecturer");
  }
  for (const e of folder.events) ref(e, "category", e.data.category, categories, "category");
  for (const d of folder.downloads) ref(d, "category", d.data.category, categories, "category");
}

/**
 * Reads and validates a content folder. Throws ContentError listing every problem (file, field,
 * line) when anything is wrong, so an import either has a whole valid folder or nothing.
 */
export async function readContentFolder(dir: string): Promise<ContentFolder> {
  const problems: ContentProblem[] = [];
  let entries;
  try {
    entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ContentError([{ file: dir, line: 1, field: null, message: code === "ENOENT" ? "no such folder" : `cannot read: ${code}` }]);
  }
  const known = new Set<string>([...ROOT_FILES, IMAGES_DIR, FILES_DIR, ...Object.values(KIND_DIRS).map((k) => k.dir)]);
  for (const e of entries) {
    if (!e.name.startsWith(".") && !known.has(e.name)) {
      problems.push({ file: e.name, line: 1, field: null, message: `is not part of a content folder (expected ${[...known].join(", ")})` });
    }
  }

  let school: ContentFolder["school"] = null;
  const schoolText = await readText(dir, "school.yaml");
  if (schoolText !== null) {
    const parsed = parseYamlText(schoolText, "school.yaml");
    if ("message" in parsed) problems.push(parsed);
    else {
      const checked = s.schoolSchema.safeParse(parsed.data);
      if (checked.success) school = { data: checked.data, lineOf: parsed.lineOf };
      else problems.push(...zodProblems("school.yaml", checked.error, parsed.lineOf));
    }
  }

  let home: ContentFolder["home"] = null;
  const homeText = await readText(dir, "home.md");
  if (homeText !== null) {
    const raw = parseMarkdownFile(homeText, "home.md");
    const parsed = "message" in raw ? raw : fromServedDialect({ kind: "home", file: "home.md", parsed: raw });
    if ("message" in parsed) problems.push(parsed);
    else if (parsed.problems.length) problems.push(...parsed.problems);
    else {
      const checked = s.homeSchema.safeParse(parsed.data);
      if (checked.success) home = { data: checked.data, body: parsed.body };
      else problems.push(...zodProblems("home.md", checked.error, parsed.lineOf));
    }
  }

  const faqText = await readText(dir, "faq.md");
  const faq = faqText === null ? null : parseFaq(faqText, "faq.md", problems);

  const folder: ContentFolder = {
    school,
    home,
    faq,
    categories: await readKind(dir, "categories", problems),
    lecturers: await readKind(dir, "lecturers", problems),
    courses: await readKind(dir, "courses", problems),
    posts: await readKind(dir, "posts", problems),
    events: await readKind(dir, "events", problems),
    downloads: await readKind(dir, "downloads", problems),
    plans: await readKind(dir, "plans", problems),
    // Images are small and many; files/ is bounded in total so one import stays one transaction.
    images: await readStoredFiles(dir, IMAGES_DIR, { maxBytes: MAX_IMAGE_BYTES, maxTotal: Number.POSITIVE_INFINITY }, readImageFile, problems),
    files: await readStoredFiles(dir, FILES_DIR, { maxBytes: MAX_DOWNLOAD_FILE_BYTES, maxTotal: MAX_DOWNLOAD_FILES_BYTES }, readDownloadFile, problems),
  };
  checkReferences(folder, problems);
  checkImages(folder, problems);
  checkDownloadFiles(folder, problems);
  if (problems.length) throw new ContentError(problems);
  return folder;
}
