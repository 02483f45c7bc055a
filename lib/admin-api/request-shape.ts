// What the Admin API checks of a request before GraphQL sees it: the body is read with a limit
// while it streams (413 past ADMIN_MAX_BODY_BYTES, without reading the rest), must be UTF-8, and a
// JSON body, like GET's `variables`/`extensions` parameters, must be JSON of the right shape (400
// otherwise; yoga answered 500 to GET ?variables=x and echoed parser internals for bad JSON). No
// string anywhere in the parameters may hold U+0000, which Postgres text cannot store, and they may
// not nest deeper than MAX_JSON_DEPTH (later steps recurse over them: lib/http/body.ts).
import { BodyEncodingError, BodyTooLargeError, formatBytes, jsonProblem, jsonProblemMessage, MAX_JSON_DEPTH, readBodyText } from "../http/body";
import { AdminRequestError } from "./errors";
import { assertQuerySize } from "./operation-limits";

/** 1 MiB: a batch of 50 mutations with full selections is about 25 KiB; yoga's default was 25 MB. */
export const ADMIN_MAX_BODY_BYTES = 1024 * 1024;

const badRequest = (message: string) => new AdminRequestError(message, 400, "BAD_REQUEST");
const nulRefused = () => new AdminRequestError("String values must not contain the NUL character (U+0000).", 400, "BAD_USER_INPUT");

const isObjectOrNull = (v: unknown) => v === null || v === undefined || (typeof v === "object" && !Array.isArray(v));

function checkParams(params: Record<string, unknown>, where: string): void {
  if (!isObjectOrNull(params.variables)) throw badRequest(`${where} variables must be a JSON object.`);
  if (!isObjectOrNull(params.extensions)) throw badRequest(`${where} extensions must be a JSON object.`);
  const problem = jsonProblem(params);
  if (problem === "nul") throw nulRefused();
  if (problem === "too_deep") throw new AdminRequestError(jsonProblemMessage(problem), 400, "BAD_REQUEST", { limit: MAX_JSON_DEPTH });
  if (typeof params.query === "string") {
    try {
      assertQuerySize(params.query);
    } catch (err) {
      const e = err as { message: string; extensions: { code: string; limit: number } };
      throw new AdminRequestError(e.message, 400, e.extensions.code, { limit: e.extensions.limit });
    }
  }
}

function parseJsonParam(name: string, raw: string | null): unknown {
  if (raw === null || raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`The ${name} parameter is not valid JSON.`);
  }
}

/**
 * The request to hand to yoga: GET as it came (after checking its parameters), POST with its body
 * read within the limit. Throws AdminRequestError (400, 413) for what must not reach GraphQL.
 */
export async function checkedAdminRequest(request: Request): Promise<Request> {
  return (await checkAdminRequest(request)).request;
}

/**
 * What checkedAdminRequest checks, plus a JSON body already parsed (`body`): yoga then takes it as
 * its request parser's result instead of reading and parsing the body a second time, and the
 * request is passed on as it came (its body read) rather than copied into a new Request.
 */
export async function checkAdminRequest(request: Request): Promise<{ request: Request; body?: unknown }> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    const text = await readAdminBody(request);
    const body = jsonBodyOf(request, text);
    if (body !== undefined) return { request, body };
    return { request: new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal }) };
  }
  return { request: await checkedGet(request) };
}

async function checkedGet(request: Request): Promise<Request> {
  const search = new URL(request.url).searchParams;
  const params = {
    query: search.get("query"),
    operationName: search.get("operationName"),
    variables: parseJsonParam("variables", search.get("variables")),
    extensions: parseJsonParam("extensions", search.get("extensions")),
  };
  checkParams(params, "GET");
  return request;
}

async function readAdminBody(request: Request): Promise<string> {
  try {
    return await readBodyText(request, ADMIN_MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      throw new AdminRequestError(`The request body is larger than ${formatBytes(ADMIN_MAX_BODY_BYTES)}.`, 413, "PAYLOAD_TOO_LARGE");
    }
    if (err instanceof BodyEncodingError) throw badRequest(err.message);
    throw err;
  }
}

/** Yoga's rule for a JSON POST (its isPOSTJsonRequest): only these exact media types select its JSON parser. */
function yogaReadsAsJson(request: Request): boolean {
  const type = request.headers.get("content-type")?.split(",")[0];
  const is = (t: string) => type === t || !!type?.startsWith(`${t};`);
  return request.method === "POST" && (is("application/json") || is("application/graphql+json"));
}

/**
 * Checks the body's parameters; returns the parsed JSON when yoga would parse it as JSON itself
 * (so it can be handed over instead of parsed twice), else undefined.
 */
function jsonBodyOf(request: Request, text: string): unknown {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/json" || type === "application/graphql-response+json") {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw badRequest("POST body sent invalid JSON.");
    }
    const batch = Array.isArray(body) ? body : [body];
    for (const params of batch) {
      if (params === null || typeof params !== "object" || Array.isArray(params)) throw badRequest("POST body must be a JSON object.");
      checkParams(params as Record<string, unknown>, "POST");
    }
    return yogaReadsAsJson(request) ? body : undefined;
  }
  if (text.includes("\u0000")) throw nulRefused();
  return undefined;
}
