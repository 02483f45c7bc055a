// The handler behind every /api/md/* route (and, through the proxy's rewrite, behind Accept:
// text/markdown on the HTML pages).
import { now } from "../clock";
import { asDatabaseUnavailable } from "../db/unavailable";
import { cachedMarkdown } from "./cached";
import { contentSignal } from "./discovery";
import {
  cacheControlFor,
  MARKDOWN_TYPE,
  markdownError,
  markdownOptions,
  markdownUnavailable,
  methodNotAllowed,
  STALE_HEADERS,
  textResponse,
  varyHeader,
} from "./http";
import { hasSlug, isValidSlug, routeOf, type DocumentKind } from "./routes";
import { requestContext } from "../tenancy/request-context";

export interface MarkdownRequest {
  request: Request;
  kind: DocumentKind;
  slug?: string;
}

export async function serveMarkdown(options: MarkdownRequest): Promise<Response> {
  try {
    return await markdownPage(options);
  } catch (err) {
    // The database is unavailable and this page was never built here (else it was served stale).
    if (asDatabaseUnavailable(err)) return markdownUnavailable(options.request);
    throw err;
  }
}

async function markdownPage({ request, kind, slug }: MarkdownRequest): Promise<Response> {
  const route = routeOf(kind);
  const context = requestContext(request);
  const { school, stale: staleSchool } = await context.schoolState();
  if (!school) return markdownError({ request, status: 404, message: "No school is served at this address." });
  if (hasSlug(route) && (slug === undefined || !isValidSlug(slug))) {
    return markdownError({
      request,
      status: 400,
      message: "Malformed slug: slugs are lower-case letters and digits separated by single hyphens.",
    });
  }
  const { origin } = context;
  const { value: page, stale } = await cachedMarkdown({ school, origin, now: now() }, kind, slug);
  if (!page) {
    return markdownError({ request, status: 404, message: `No published ${route.noun} has the slug ${slug}.` });
  }
  return textResponse({
    request,
    body: page.body,
    encoded: page.encoded,
    etag: page.etag,
    contentType: MARKDOWN_TYPE,
    cacheControl: cacheControlFor(school),
    headers: {
      "x-markdown-tokens": String(page.tokens),
      link: `<${page.url}>; rel="canonical"; type="text/html"`,
      "content-signal": contentSignal(school),
      // Reached through a gated page by negotiation, the answer depends on the session cookie.
      ...(school.enterpriseTraining ? { vary: varyHeader(["Cookie"]) } : {}),
      ...(stale || staleSchool ? STALE_HEADERS : {}),
    },
  });
}

type Params = Promise<Record<string, string | string[] | undefined>> | undefined;

/** Exports for an /api/md route: GET and HEAD serve the document; OPTIONS names them; any other method is a markdown 405 with Allow. */
export function markdownRoute(kind: DocumentKind) {
  // Next passes no params object to routes without dynamic segments.
  const handler = async (request: Request, ctx?: { params: Params }) => {
    const params = (await ctx?.params) ?? {};
    const slug = typeof params.slug === "string" ? params.slug : undefined;
    return serveMarkdown({ request, kind, slug });
  };
  return { GET: handler, HEAD: handler, OPTIONS: markdownOptions, ...OTHER_METHODS };
}

const notAllowed = async (request: Request) => methodNotAllowed(request);
const OTHER_METHODS = { POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };

/** Every path under /api/md that names no document (/api/md itself, /api/md/nope, extra segments). */
export function unknownMarkdownPath() {
  const handler = async (request: Request) => {
    // The answer is a 404 either way; without the database, assume the address serves a school.
    const school = await requestContext(request).school().catch((err: unknown) => {
      if (asDatabaseUnavailable(err)) return true;
      throw err;
    });
    const message = school ? "No storefront document has this address. Every document is listed in llms.txt." : "No school is served at this address.";
    return markdownError({ request, status: 404, message });
  };
  // No resource, so no method is allowed or refused: every method gets the 404.
  return { GET: handler, HEAD: handler, OPTIONS: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}
