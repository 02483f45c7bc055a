// The storefront's routes: each HTML page has a markdown twin under /api/md. One table drives the
// route handlers, the proxy's negotiation rewrite, llms.txt and the OpenAPI document.

export type DocumentKind =
  | "home"
  | "faq"
  | "course_index"
  | "course"
  | "post"
  | "event"
  | "digital_download"
  | "plan"
  | "category"
  | "lecturer_index"
  | "lecturer";

export interface StorefrontRoute {
  kind: DocumentKind;
  /** HTML path pattern; `{slug}` marks the item's slug. */
  htmlPath: string;
  /** Markdown twin's path pattern. */
  markdownPath: string;
  /** What the route serves, for OpenAPI. */
  summary: string;
  /** Human name of one item (for 404 messages). */
  noun: string;
}

export const STOREFRONT_ROUTES: readonly StorefrontRoute[] = [
  { kind: "home", htmlPath: "/", markdownPath: "/api/md/home", summary: "Homepage", noun: "homepage" },
  { kind: "faq", htmlPath: "/faq", markdownPath: "/api/md/faq", summary: "Frequently asked questions", noun: "FAQ" },
  { kind: "course_index", htmlPath: "/courses", markdownPath: "/api/md/courses", summary: "Course index", noun: "course index" },
  { kind: "course", htmlPath: "/courses/{slug}", markdownPath: "/api/md/courses/{slug}", summary: "A course", noun: "course" },
  { kind: "post", htmlPath: "/posts/{slug}", markdownPath: "/api/md/posts/{slug}", summary: "A post", noun: "post" },
  { kind: "event", htmlPath: "/events/{slug}", markdownPath: "/api/md/events/{slug}", summary: "An event", noun: "event" },
  {
    kind: "digital_download",
    htmlPath: "/digital-downloads/{slug}",
    markdownPath: "/api/md/digital-downloads/{slug}",
    summary: "A digital download",
    noun: "digital download",
  },
  { kind: "plan", htmlPath: "/plans/{slug}", markdownPath: "/api/md/plans/{slug}", summary: "A membership plan", noun: "membership plan" },
  { kind: "category", htmlPath: "/categories/{slug}", markdownPath: "/api/md/categories/{slug}", summary: "A category", noun: "category" },
  { kind: "lecturer_index", htmlPath: "/lecturers", markdownPath: "/api/md/lecturers", summary: "Lecturer index", noun: "lecturer index" },
  { kind: "lecturer", htmlPath: "/lecturers/{slug}", markdownPath: "/api/md/lecturers/{slug}", summary: "A lecturer profile", noun: "lecturer" },
];

export function routeOf(kind: DocumentKind): StorefrontRoute {
  return STOREFRONT_ROUTES.find((r) => r.kind === kind)!;
}

export const hasSlug = (route: StorefrontRoute) => route.htmlPath.includes("{slug}");

/** Lower-case words joined by single hyphens; bounded so a path cannot carry arbitrary data. */
export const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const SLUG = new RegExp(SLUG_PATTERN);
export const SLUG_MAX_LENGTH = 200;

export function isValidSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX_LENGTH && SLUG.test(slug);
}

export function htmlPathOf(kind: DocumentKind, slug?: string): string {
  return fill(routeOf(kind).htmlPath, slug);
}

export function markdownPathOf(kind: DocumentKind, slug?: string): string {
  return fill(routeOf(kind).markdownPath, slug);
}

function fill(pattern: string, slug?: string): string {
  if (!pattern.includes("{slug}")) return pattern;
  if (slug === undefined) throw new Error(`slug required for ${pattern}`);
  return pattern.replace("{slug}", encodeURIComponent(slug));
}

export interface PageMatch {
  route: StorefrontRoute;
  /** Raw (still percent-encoded) slug segment; validated by the markdown handler. */
  slug?: string;
  markdownPath: string;
}

/**
 * The storefront page an HTML path addresses, with its markdown twin's path; null for any other
 * path (login, OAuth, API, assets). A trailing slash is tolerated; deeper paths are no page.
 */
export function matchPage(pathname: string): PageMatch | null {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  for (const route of STOREFRONT_ROUTES) {
    const m = matchPattern(route.htmlPath, path);
    if (m) return { route, slug: m.slug, markdownPath: m.slug === undefined ? route.markdownPath : route.markdownPath.replace("{slug}", m.slug) };
  }
  return null;
}

/** A path against a route pattern: {} for its fixed path, { slug } (raw, one non-empty segment) for a `{slug}` pattern. */
function matchPattern(pattern: string, path: string): { slug?: string } | null {
  const [prefix, suffix] = pattern.split("{slug}");
  if (suffix === undefined) return path === prefix ? {} : null;
  if (!path.startsWith(prefix!) || path.length === prefix!.length) return null;
  const slug = path.slice(prefix!.length);
  return slug.includes("/") ? null : { slug };
}

/**
 * A page's `.md` URL (`/courses/intro-to-sql.md`, `/courses.md`, `/index.md` for the homepage): the
 * markdown twin at the page's own address plus `.md`, as documentation sites serve them. Null for
 * anything else.
 */
export function matchMarkdownUrl(pathname: string): PageMatch | null {
  const m = /^(\/.*?)\.md$/.exec(pathname);
  if (!m || m[1] === "/") return null;
  const page = matchPage(m[1] === "/index" ? "/" : m[1]!);
  // "/index.md" is the homepage's; "/.md" or "/courses/.md" name nothing.
  return page && !m[1]!.endsWith("/") ? page : null;
}
