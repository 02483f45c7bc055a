// Handlers of /llms.txt and /llms-full.txt.
import { now } from "../clock";
import { requestSchool } from "../tenancy/request-context";
import { cacheControlFor, originOf, textResponse } from "./http";
import { cachedLlmsFullTxt, cachedLlmsTxt, type TextPage } from "./cached";
import type { BuildContext } from "./build";
import { buildOpenApi } from "./openapi";

const LLMS_TYPE = "text/plain; charset=utf-8";

async function serve(request: Request, build: (ctx: BuildContext) => Promise<TextPage>): Promise<Response> {
  const school = await requestSchool(request);
  if (!school) {
    return textResponse({ request, body: "No school is served at this address.\n", status: 404, contentType: LLMS_TYPE, cacheControl: "no-store" });
  }
  const page = await build({ school, origin: originOf(request), now: now() });
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
export const serveLlmsFullTxt = (request: Request) => serve(request, cachedLlmsFullTxt);

/** /openapi.json: generated per request so servers[].url is the origin the client used. */
export async function serveOpenApi(request: Request): Promise<Response> {
  const school = await requestSchool(request);
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
