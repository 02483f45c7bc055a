import { GraphQLError } from "graphql";
import { maskError, processRegularResult, type GraphQLParams, type Plugin } from "graphql-yoga";
import { now as clockNow } from "../clock";
import { resolveApiVersion, type ApiVersion } from "./api-version";
import { authenticateApiKey, type AdminCredential } from "./authenticate";
import type { AdminServerContext } from "./context";
import { credentialKey } from "../credentials/credential";
import { withDbLane } from "../db/lane";
import { asDatabaseUnavailable } from "../db/unavailable";
import { adminPreflight, withAdminCors } from "./cors";
import { AdminRequestError, ServiceUnavailableError } from "./errors";
import { playgroundResponse } from "./playground";
import { checkAdminRequest } from "./request-shape";
import { ADMIN_GRAPHQL_PATH, createAdminYoga, hasQuery, type AdminYoga, type CreateAdminYogaOptions } from "./yoga";

/** GET from a browser (Accept: text/html, no query) gets the playground. */
export function wantsPlayground(request: Request): boolean {
  if (request.method !== "GET") return false;
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("text/html") && !new URL(request.url).searchParams.has("query");
}

/**
 * The /admin/graphql request pipeline: API-Version → API key → GraphQL (parse, validate, plugins
 * such as rate limits, execute). The first two run before any limiter and answer 400 / 401 with a
 * top-level `errors` array and no budget headers.
 */
export function createAdminHandler(options: CreateAdminYogaOptions = {}): (request: Request) => Promise<Response> {
  let yoga: AdminYoga | undefined;
  let direct: DirectHooks | undefined;
  return async (request) => {
    if (request.method === "OPTIONS") return adminPreflight();
    if (wantsPlayground(request)) return playgroundResponse(request);
    return withAdminCors(await answer(request));
  };

  async function answer(incoming: Request): Promise<Response> {
    let apiVersion: ApiVersion;
    let credential: AdminCredential;
    let request: Request;
    let body: unknown;
    try {
      apiVersion = resolveApiVersion(incoming.headers);
      credential = await authenticateApiKey({ headers: incoming.headers, now: clockNow() });
      ({ request, body } = await checkAdminRequest(incoming));
    } catch (err) {
      if (err instanceof AdminRequestError) return err.toResponse();
      // The key could not be looked up: nothing ran, so no budget is charged (limits run later).
      if (asDatabaseUnavailable(err)) return new ServiceUnavailableError().toResponse();
      throw err;
    }
    const admin = (yoga ??= createAdminYoga(options));
    direct ??= directHooks(options);
    const context: AdminServerContext = { credential, apiVersion, notes: {}, parsedBody: body };
    // The credential's database work shares connections fairly with everyone else's (lib/db/fair-gate.ts).
    const mediaType = direct.allowed ? directMediaType(request, body) : undefined;
    const response = await withDbLane(credentialKey(credential), () =>
      mediaType ? answerDirectly(admin, direct!, request, body as GraphQLParams, context, mediaType) : admin.fetch(request, context),
    );
    response.headers.set("api-version", apiVersion);
    if (context.notes.idempotentReplay) response.headers.set("idempotent-replayed", "true");
    return response;
  }
}

interface DirectHooks {
  /** False when an extra plugin hooks the HTTP layer (onRequest, request parsing, result processing). */
  allowed: boolean;
  /** The extra plugins' onResponse hooks, run on a direct answer as the server adapter runs them. */
  onResponse: NonNullable<Plugin["onResponse"]>[];
}

function directHooks(options: CreateAdminYogaOptions): DirectHooks {
  const plugins = (options.plugins ?? []) as Plugin[];
  return {
    allowed: !plugins.some((p) => p.onRequest || p.onRequestParse || p.onParams || p.onResultProcess),
    onResponse: plugins.flatMap((p) => (p.onResponse ? [p.onResponse.bind(p)] : [])),
  };
}

const YOGA_PARAMS = new Set(["query", "variables", "operationName", "extensions"]);

/**
 * The media type yoga would answer a JSON POST with, when the request can skip yoga's HTTP layer
 * (answerDirectly); undefined for anything else, which goes through yoga.fetch as before. Profile
 * (docs/benchmarks.md, "Admin pipeline"): the server adapter, the request-parser and onParams hooks
 * and their promise plumbing were a fifth of an empty operation's CPU time, for work whose outcome
 * is known here: one operation (no batch), at the GraphQL path, with parameters of the right shape.
 */
function directMediaType(request: Request, body: unknown): string | undefined {
  if (request.method !== "POST" || body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const path = request.url.split("?")[0]!;
  if (!path.endsWith(ADMIN_GRAPHQL_PATH) && !path.endsWith(`${ADMIN_GRAPHQL_PATH}/`)) return undefined;
  const params = body as Record<string, unknown>;
  // Yoga's own parameter checks (useCheckGraphQLQueryParams): anything they would refuse goes to yoga.
  for (const key in params) if (params[key] != null && !YOGA_PARAMS.has(key)) return undefined;
  if (!hasQuery(params)) return undefined;
  if (params.operationName != null && typeof params.operationName !== "string") return undefined;
  return regularMediaType(request.headers.get("accept"));
}

/**
 * Yoga's result-processor choice (useResultProcessors): over its processors' media types in groups
 * [event-stream], [multipart], [graphql-response+json, json], each Accept entry (utf-8 only) taken
 * from the last to the first, the last match wins. Only a JSON choice is answered directly; an
 * Accept that picks a stream goes to yoga, which answers it as before.
 */
function regularMediaType(accept: string | null): string | undefined {
  if (accept === null || accept === "" || accept === "*/*") return "application/json";
  const mediaTypes: string[] = [];
  for (const entry of accept.replace(/\s/g, "").toLowerCase().split(",")) {
    const [mediaType, ...params] = entry.split(";");
    const charset = params.find((p) => p.includes("charset=")) ?? "charset=utf-8";
    if (charset === "charset=utf-8" && mediaType !== undefined) mediaTypes.push(mediaType);
  }
  mediaTypes.reverse();
  let chosen: string | undefined;
  for (const group of PROCESSOR_GROUPS) {
    for (const asked of mediaTypes) for (const processor of group) if (matches(processor, asked)) chosen = processor;
  }
  return chosen === "application/json" || chosen === "application/graphql-response+json" ? chosen : undefined;
}

const PROCESSOR_GROUPS = [["text/event-stream"], ["multipart/mixed"], ["application/graphql-response+json", "application/json"]];

function matches(processor: string, asked: string): boolean {
  const [askedPre, askedSuf] = processor.split("/");
  const [pre, suf] = asked.split("/");
  return (pre === "*" || pre === askedPre) && (suf === "*" || suf === askedSuf);
}

/**
 * One operation through yoga's GraphQL pipeline without its HTTP layer: the same envelop plugins
 * (parse/validate caches, operation limits, idempotency, rate limits, outage mapping, masked errors)
 * and yoga's own params/result hooks and JSON result processor, so the response is the one
 * yoga.fetch gives. The schema has no subscription resolvers, so a result is never a stream.
 */
async function answerDirectly(
  admin: AdminYoga,
  hooks: DirectHooks,
  request: Request,
  params: GraphQLParams,
  context: AdminServerContext,
  mediaType: string,
): Promise<Response> {
  let response: Response;
  try {
    const result = await admin.getResultForParams({ params, request }, context as never);
    response = processRegularResult(result as Parameters<typeof processRegularResult>[0], admin.fetchAPI, mediaType);
  } catch (err) {
    // As yoga.fetch answers an error thrown before execution: the GraphQL error with its status.
    if (!(err instanceof GraphQLError)) console.error(err);
    const error = err instanceof GraphQLError ? err : (maskError(err, "Unexpected error.") as GraphQLError);
    response = processRegularResult({ errors: [error] }, admin.fetchAPI, mediaType);
  }
  for (const onResponse of hooks.onResponse) {
    await onResponse({ request, response, serverContext: context as never, setResponse: (r: Response) => void (response = r), fetchAPI: admin.fetchAPI } as never);
  }
  return response;
}

