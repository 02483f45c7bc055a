// Handlers of /llms.txt and /llms-full.txt.
import { now } from "../clock";
import { resolveSchool } from "../tenancy/resolve-school";
import { cacheControlFor, originOf, textResponse } from "./http";
import { cachedLlmsFull, cachedLlmsTxt, type TextPage } from "./cached";
import type { BuildContext } from "./build";
import { buildOpenApi } from "./openapi";
import { parse, print } from "graphql";
import { typeDefs } from "../admin-api/schema";

const LLMS_TYPE = "text/plain; charset=utf-8";

const notFound = (request: Request, message: string) =>
  textResponse({ request, body: `${message}\n`, status: 404, contentType: LLMS_TYPE, cacheControl: "no-store" });

async function serve(request: Request, build: (ctx: BuildContext) => Promise<TextPage | null>): Promise<Response> {
  const school = await resolveSchool(request.headers);
  if (!school) return notFound(request, "No school is served at this address.");
  const page = await build({ school, origin: originOf(request), now: now() });
  if (!page) return notFound(request, "No such part of llms-full.txt; the parts are listed in /llms-full.txt.");
  return textResponse({
    request,
    body: page.body,
    etag: page.etag,
    contentType: LLMS_TYPE,
    cacheControl: cacheControlFor(school),
    headers: { "x-markdown-tokens": String(page.tokens) },
  });
}

export const serveLlmsTxt = (request: Request) => serve(request, cachedLlmsTxt);
export const serveLlmsFullTxt = (request: Request) => serve(request, async (ctx) => (await cachedLlmsFull(ctx)).index);

/** /llms-full/<part>.txt, present only while llms-full.txt is over its budget. */
export function serveLlmsFullPart(request: Request, file: string): Promise<Response> {
  const name = /^([a-z0-9-]{1,64})\.txt$/.exec(file)?.[1];
  return serve(request, async (ctx) => (name ? ((await cachedLlmsFull(ctx)).parts.get(name) ?? null) : null));
}

/** /openapi.json: generated per request so servers[].url is the origin the client used. */
export async function serveOpenApi(request: Request): Promise<Response> {
  const school = await resolveSchool(request.headers);
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
    headers: { "access-control-allow-origin": "*" },
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
