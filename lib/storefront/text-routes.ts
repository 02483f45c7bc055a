// Handlers of the storefront's other text routes: openapi.json, robots.txt, sitemap.xml (the llms
// files are in llms-routes.ts; the Admin SDL in lib/admin-api/sdl.ts).
import { now } from "../clock";
import { cacheControlFor, STALE_HEADERS, textResponse } from "./http";
import { cachedSitemap } from "./cached";
import { contentSignal, robotsTxt } from "./discovery";
import { LLMS_TYPE, notFound, orUnavailable } from "./llms-routes";
import { buildOpenApi } from "./openapi";
import { requestContext } from "../tenancy/request-context";

/**
 * /openapi.json: generated per request so servers[].url is the origin the client used. It needs
 * only the school, so while the database is unavailable it is built from the last school seen.
 */
export function serveOpenApi(request: Request): Promise<Response> {
  return orUnavailable(request, "json", async () => {
    const context = requestContext(request);
    const { school, stale } = await context.schoolState();
    if (!school) {
      const body = JSON.stringify({ error: "not_found", error_description: "No school is served at this address." });
      return textResponse({ request, body, status: 404, contentType: "application/json; charset=utf-8", cacheControl: "no-store" });
    }
    const body = JSON.stringify(buildOpenApi({ origin: context.origin, schoolName: school.name }), null, 2);
    return textResponse({
      request,
      body,
      contentType: "application/json; charset=utf-8",
      cacheControl: "public, max-age=300",
      headers: { "access-control-allow-origin": "*", ...(stale ? STALE_HEADERS : {}) },
    });
  });
}

/** /robots.txt: the school's Content-Signal and the crawler rules that follow from it (lib/storefront/discovery.ts). */
export function serveRobotsTxt(request: Request): Promise<Response> {
  return orUnavailable(request, "text", async () => {
    const context = requestContext(request);
    const school = await context.school();
    if (!school) return notFound(request, "No school is served at this address.");
    return textResponse({
      request,
      body: robotsTxt({ school, origin: context.origin }),
      contentType: LLMS_TYPE,
      cacheControl: "public, max-age=300",
      headers: { "content-signal": contentSignal(school) },
    });
  });
}

/** /sitemap.xml: every public page; empty for enterprise-training schools, whose pages are for members. */
export function serveSitemap(request: Request): Promise<Response> {
  return orUnavailable(request, "text", async () => {
    const context = requestContext(request);
    const school = await context.school();
    if (!school) return notFound(request, "No school is served at this address.");
    const { value: page, stale } = await cachedSitemap({ school, origin: context.origin, now: now() }, school);
    return textResponse({
      request,
      body: page.body,
      encoded: page.encoded,
      etag: page.etag,
      contentType: "application/xml; charset=utf-8",
      cacheControl: cacheControlFor(school),
      headers: stale ? STALE_HEADERS : {},
    });
  });
}
