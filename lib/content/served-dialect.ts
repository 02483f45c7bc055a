import type { ContentProblem } from "./errors";
import type { ParsedFile } from "./frontmatter";

// One vocabulary for content files and the markdown the storefront serves at /api/md/* (issue 29
// item 16): a page copied from the storefront imports as it is. Its snake_case keys are accepted as
// aliases of the import names, the keys the storefront derives (url, updated, terms, counts…) are
// ignored, references written as objects ({ name, slug, url }) are read by their slug, and the lead
// the page repeats from its frontmatter (the `# title` heading, the description line, the image,
// the facts list, the link lists at the end) is dropped from the body. docs/content.md lists them.

/** Every file kind that has a storefront page, with the `type` that page declares. */
export const SERVED_TYPES = {
  home: "home",
  faq: "faq",
  categories: "category",
  lecturers: "lecturer",
  courses: "course",
  posts: "post",
  events: "event",
  downloads: "digital_download",
  plans: "plan",
} as const;
export type ServedKind = keyof typeof SERVED_TYPES;

/** The import name of a served key; "body" moves the value into the markdown body. */
type Target = string | "body";

interface Dialect {
  aliases: Record<string, Target>;
  /** Keys the storefront derives from other data; a copied page may carry them, they change nothing. */
  derived: string[];
  /** Headings of the link lists the storefront appends after the body. */
  sections: string[];
}

export const COMMON_DERIVED = ["type", "url", "markdown_url", "slug", "updated"];

export const DIALECTS: Record<ServedKind, Dialect> = {
  home: {
    aliases: { description: "tagline" },
    derived: ["school"],
    sections: ["Courses", "Membership plans", "Upcoming events", "Latest posts", "Digital downloads", "Categories", "Lecturers"],
  },
  faq: { aliases: {}, derived: ["title", "description", "count"], sections: [] },
  categories: {
    aliases: { title: "name", description: "body" },
    derived: ["courses", "events", "posts", "digital_downloads"],
    sections: ["Courses", "Events", "Posts", "Digital downloads"],
  },
  lecturers: { aliases: { title: "name", description: "headline", avatar_url: "avatarUrl" }, derived: ["courses"], sections: ["Courses", "Posts"] },
  courses: {
    aliases: { description: "summary", image_url: "imageUrl", duration_minutes: "durationMinutes", published: "publishedAt" },
    derived: [],
    sections: [],
  },
  posts: { aliases: { description: "excerpt", image_url: "imageUrl", published: "publishedAt" }, derived: [], sections: [] },
  events: {
    aliases: { description: "summary", start: "startsAt", end: "endsAt", online_url: "onlineUrl", image_url: "imageUrl" },
    derived: ["attendance_mode"],
    sections: [],
  },
  downloads: { aliases: { description: "summary", file_name: "fileName", file_size_bytes: "fileSizeBytes" }, derived: [], sections: [] },
  plans: {
    aliases: {
      title: "name", description: "body", plan_type: "planType", interval_count: "intervalCount", length_count: "lengthCount",
      length_interval: "lengthInterval", ends: "fixedEndAt",
    },
    derived: ["terms"],
    sections: [],
  },
};

/** Reference fields the storefront writes as objects ({ name, slug, url, markdown_url }). */
const REFERENCES = new Set(["category", "author", "lecturers"]);

export interface Normalized {
  data: unknown;
  body: string;
  lineOf: ParsedFile["lineOf"];
  problems: ContentProblem[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A reference as the storefront writes it ({ slug, … }) or as a content file does ("slug"). */
function slugOf(v: unknown): unknown {
  return isRecord(v) && typeof v.slug === "string" ? v.slug : v;
}

const paragraphs = (text: string) => text.trim().split(/\n{2,}/);

/**
 * The body a storefront page has around its own: the lead it rebuilds from the frontmatter
 * (heading, description line, image, facts) and the link lists it appends are dropped.
 */
function servedBody(kind: ServedKind, body: string, hasDescription: boolean): string {
  const blocks = paragraphs(body.replace(/^\n+/, ""));
  if (blocks[0]?.startsWith("# ")) blocks.shift();
  if (hasDescription && blocks.length && !/^(!\[|- \*\*|## )/.test(blocks[0]!)) blocks.shift();
  if (blocks[0]?.startsWith("![")) blocks.shift();
  if (blocks[0] && blocks[0].split("\n").every((l) => /^- \*\*[^*\n]+:\*\* /.test(l))) blocks.shift();
  const headings = DIALECTS[kind].sections;
  // From the end: "## Heading" then a block of "- [title](url)…" lines is a list the page appended.
  while (blocks.length >= 2) {
    const list = blocks[blocks.length - 1]!.trimEnd();
    const heading = blocks[blocks.length - 2]!.trim();
    if (!headings.some((h) => heading === `## ${h}`) || !list.split("\n").every((l) => l.startsWith("- ["))) break;
    blocks.splice(-2);
  }
  return blocks.join("\n\n").trim() === "" ? "" : blocks.join("\n\n").replace(/\n*$/, "\n");
}

/**
 * Reads a file written in either dialect as the import format: aliases renamed, derived keys
 * dropped, object references reduced to slugs; a file with `type` (a copied page) also loses the
 * lead and link lists the storefront adds to the body. Problems name the key the file used.
 */
export function fromServedDialect(options: { kind: ServedKind; file: string; parsed: ParsedFile }): Normalized {
  const { kind, file, parsed } = options;
  const problems: ContentProblem[] = [];
  if (!isRecord(parsed.data)) return { data: parsed.data, body: parsed.body, lineOf: parsed.lineOf, problems };
  const dialect = DIALECTS[kind];
  const source = parsed.data;
  const data: Record<string, unknown> = {};
  const usedKey = new Map<string, string>();
  let bodyFromDescription: string | null = null;
  const copiedPage = "type" in source;
  if (copiedPage && source.type !== SERVED_TYPES[kind]) {
    problems.push({
      file, line: parsed.lineOf(["type"]), field: "type",
      message: `is ${JSON.stringify(source.type)} but a file here is a ${SERVED_TYPES[kind]} page`,
    });
  }
  for (const [key, value] of Object.entries(source)) {
    if (COMMON_DERIVED.includes(key) || dialect.derived.includes(key)) continue;
    const target = dialect.aliases[key] ?? key;
    if (target === "body") {
      if (typeof value === "string") bodyFromDescription = value;
      else problems.push({ file, line: parsed.lineOf([key]), field: key, message: "must be text" });
      continue;
    }
    const other = usedKey.get(target);
    if (other !== undefined && JSON.stringify(data[target]) !== JSON.stringify(value)) {
      problems.push({ file, line: parsed.lineOf([key]), field: key, message: `says something else than ${other}; keep one of them` });
      continue;
    }
    usedKey.set(target, key);
    data[target] = REFERENCES.has(target) ? (Array.isArray(value) ? value.map(slugOf) : slugOf(value)) : value;
  }
  let body = copiedPage ? servedBody(kind, parsed.body, typeof source.description === "string" && source.description.trim() !== "") : parsed.body;
  // Plans and categories keep their description as the body; a copied page has it in the frontmatter.
  if (bodyFromDescription !== null && body.trim() === "") body = bodyFromDescription.trim() ? `${bodyFromDescription.trim()}\n` : "";
  else if (bodyFromDescription !== null && body.trim() !== bodyFromDescription.trim()) {
    problems.push({ file, line: parsed.lineOf(["description"]), field: "description", message: "is the body of this file; write it below the frontmatter, not in both" });
  }
  const lineOf: ParsedFile["lineOf"] = (path) => {
    const [first, ...rest] = path;
    const original = typeof first === "string" ? usedKey.get(first) : undefined;
    return parsed.lineOf(original === undefined ? path : [original, ...rest]);
  };
  return { data, body, lineOf, problems };
}
