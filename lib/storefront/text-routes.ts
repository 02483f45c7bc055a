// Handlers of /llms.txt and /llms-full.txt.
import { now } from "../clock";
import type { ContentResult } from "../db/content-cache";
import { asDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { resolveSchoolState } from "../tenancy/resolve-school";
import { cacheControlFor, originOf, STALE_HEADERS, textResponse } from "./http";
import { cachedLlmsFull, cachedLlmsTxt, cachedSitemap, type TextPage } from "./cached";
import { contentSignal, robotsTxt } from "./discovery";
import type { BuildContext } from "./build";
import { buildOpenApi } from "./openapi";
import { parse, print } from "graphql";
import { typeDefs } from "../admin-api/schema";

const LLMS_TYPE = "text/plain; charset=utf-8";

const UNAVAILABLE = `The service's database is unavailable; retry in ${retryAfterHeaders()["retry-after"]} seconds.`;

/** Runs a text route; a database outage on a never-built copy is 503 with Retry-After in `format`. */
async function orUnavailable(request: Request, format: "text" | "json", run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    if (!asDatabaseUnavailable(err)) throw err;
    const body = format === "json" ? JSON.stringify({ error: "temporarily_unavailable", error_description: UNAVAILABLE }) : `${UNAVAILABLE}\n`;
    const contentType = format === "json" ? "application/json; charset=utf-8" : LLMS_TYPE;
    return textResponse({ request, body, status: 503, contentType, cacheControl: "no-store", headers: retryAfterHeaders() });
  }
}

const notFound = (request: Request, message: string) =>
  textResponse({ request, body: `${message}\n`, status: 404, contentType: LLMS_TYPE, cacheControl: "no-store" });

function serve(request: Request, build: (ctx: BuildContext) => Promise<ContentResult<TextPage | null>>): Promise<Response> {
  return orUnavailable(request, "text", async () => {
    const { school, stale: staleSchool } = await resolveSchoolState(request.headers);
    if (!school) return notFound(request, "No school is served at this address.");
    const { value: page, stale } = await build({ school, origin: originOf(request), now: now() });
    if (!page) return notFound(request, "No such part of llms-full.txt; the parts are listed in /llms-full.txt.");
    return textResponse({
      request,
      body: page.body,
      encoded: page.encoded,
      etag: page.etag,
      contentType: LLMS_TYPE,
      cacheControl: cacheControlFor(school),
      headers: { "x-markdown-tokens": String(page.tokens), "content-signal": contentSignal(school), ...(stale || staleSchool ? STALE_HEADERS : {}) },
    });
  });
}

export const serveLlmsTxt = (request: Request) => serve(request, cachedLlmsTxt);
export const serveLlmsFullTxt = (request: Request) =>
  serve(request, async (ctx) => {
    const { value, stale } = await cachedLlmsFull(ctx);
    return { value: value.index, stale };
  });

/** /llms-full/<part>.txt, present only while llms-full.txt is over its budget. */
export function serveLlmsFullPart(request: Request, file: string): Promise<Response> {
  const name = /^([a-z0-9-]{1,64})\.txt$/.exec(file)?.[1];
  return serve(request, async (ctx) => {
    if (!name) return { value: null, stale: false };
    const { value, stale } = await cachedLlmsFull(ctx);
    return { value: value.parts.get(name) ?? null, stale };
  });
}

/**
 * /openapi.json: generated per request so servers[].url is the origin the client used. It needs
 * only the school, so while the database is unavailable it is built from the last school seen.
 */
export function serveOpenApi(request: Request): Promise<Response> {
  return orUnavailable(request, "json", async () => {
    const { school, stale } = await resolveSchoolState(request.headers);
    if (!school) {
      const body = JSON.stringify({ error: "not_found", error_description: "No school is served at this address." });
      return textResponse({ request, body, status: 404, contentType: "application/json; charset=utf-8", cacheControl: "no-store" });
    }
    const body = JSON.stringify(buildOpenApi({ origin: originOf(request), schoolName: school.name }), null, 2);
    return textResponse({
      request,
      body,
      contentType: "application/json; charset=utf-8",
      cacheControl: "public, max-age=300",
      headers: { "access-control-allow-origin": "*", ...(stale ? STALE_HEADERS : {}) },
    });
  });
}

let sdl: string | undefined;

/**
 * /admin/graphql/schema.graphql: the Admin API's GraphQL SDL, printed from the type definitions the
 * executable schema is built from (so it cannot drift from it), descriptions included.
 */
export async function serveAdminSdl(request: Request): Promise<Response> {
  sdl ??= print(parse(typeDefs)) + "\n";
  return textResponse({
    request,
    body: sdl,
    contentType: "text/plain; charset=utf-8",
    cacheControl: "public, max-age=300",
    headers: { "access-control-allow-origin": "*" },
  });
}

/** /robots.txt: the school's Content-Signal and the crawler rules that follow from it (lib/storefront/discovery.ts). */
export function serveRobotsTxt(request: Request): Promise<Response> {
  return orUnavailable(request, "text", async () => {
    const { school } = await resolveSchoolState(request.headers);
    if (!school) return notFound(request, "No school is served at this address.");
    return textResponse({
      request,
      body: robotsTxt({ school, origin: originOf(request) }),
      contentType: LLMS_TYPE,
      cacheControl: "public, max-age=300",
      headers: { "content-signal": contentSignal(school) },
    });
  });
}

/** /sitemap.xml: every public page; empty for enterprise-training schools, whose pages are for members. */
export function serveSitemap(request: Request): Promise<Response> {
  return orUnavailable(request, "text", async () => {
    const { school } = await resolveSchoolState(request.headers);
    if (!school) return notFound(request, "No school is served at this address.");
    const { value: page, stale } = await cachedSitemap({ school, origin: originOf(request), now: now() }, school);
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
