// Handlers of /llms.txt and /llms-full.txt.
import { now } from "../clock";
import { resolveSchool } from "../tenancy/resolve-school";
import { cacheControlFor, originOf, textResponse } from "./http";
import { buildLlmsFullTxt, buildLlmsTxt } from "./llms";
import { estimateTokens } from "./markdown";
import { buildOpenApi } from "./openapi";

const LLMS_TYPE = "text/plain; charset=utf-8";

async function serve(request: Request, build: typeof buildLlmsTxt): Promise<Response> {
  const school = await resolveSchool(request.headers);
  if (!school) {
    return textResponse({ request, body: "No school is served at this address.\n", status: 404, contentType: LLMS_TYPE, cacheControl: "no-store" });
  }
  const body = await build({ school, origin: originOf(request), now: now() });
  return textResponse({
    request,
    body,
    contentType: LLMS_TYPE,
    cacheControl: cacheControlFor(school),
    headers: { "x-markdown-tokens": String(estimateTokens(body)) },
  });
}

export const serveLlmsTxt = (request: Request) => serve(request, buildLlmsTxt);
export const serveLlmsFullTxt = (request: Request) => serve(request, buildLlmsFullTxt);

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
