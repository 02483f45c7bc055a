// Handlers of /llms.txt, /llms-full.txt and its parts, apart from text-routes.ts: proxy.ts serves
// the llms files itself and bundles this module.
import { now } from "../clock";
import type { ContentResult } from "../db/content-cache";
import { asDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { cacheControlFor, STALE_HEADERS, textResponse } from "./http";
import { cachedLlmsFull, cachedLlmsTxt, type TextPage } from "./cached";
import { contentSignal } from "./discovery";
import type { BuildContext } from "./build";
import { requestContext } from "../tenancy/request-context";

export const LLMS_TYPE = "text/plain; charset=utf-8";

const UNAVAILABLE = `The service's database is unavailable; retry in ${retryAfterHeaders()["retry-after"]} seconds.`;

/** Runs a text route; a database outage on a never-built copy is 503 with Retry-After in `format`. */
export async function orUnavailable(request: Request, format: "text" | "json", run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    if (!asDatabaseUnavailable(err)) throw err;
    const body = format === "json" ? JSON.stringify({ error: "temporarily_unavailable", error_description: UNAVAILABLE }) : `${UNAVAILABLE}\n`;
    const contentType = format === "json" ? "application/json; charset=utf-8" : LLMS_TYPE;
    return textResponse({ request, body, status: 503, contentType, cacheControl: "no-store", headers: retryAfterHeaders() });
  }
}

export const notFound = (request: Request, message: string) =>
  textResponse({ request, body: `${message}\n`, status: 404, contentType: LLMS_TYPE, cacheControl: "no-store" });

function serve(request: Request, build: (ctx: BuildContext) => Promise<ContentResult<TextPage | null>>): Promise<Response> {
  return orUnavailable(request, "text", async () => {
    const context = requestContext(request);
    const { school, stale: staleSchool } = await context.schoolState();
    if (!school) return notFound(request, "No school is served at this address.");
    const { value: page, stale } = await build({ school, origin: context.origin, now: now() });
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
