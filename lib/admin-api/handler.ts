import { GraphQLError } from "graphql";
import { maskError, processRegularResult, type GraphQLParams, type Plugin } from "graphql-yoga";
import { now as clockNow } from "../clock";
import { resolveApiVersion, type ApiVersion } from "./api-version";
import { authenticateApiKey, type AdminCredential } from "./authenticate";
import type { AdminServerContext } from "./context";
import { credentialKey } from "../credentials/credential";
import { withDbLane } from "../db/lane";
import { REFUSED_BODY_HEADERS } from "../http/body";
import { asDatabaseUnavailable } from "../db/unavailable";
import { adminPreflight, withAdminCors } from "./cors";
import { AdminRequestError, ServiceUnavailableError } from "./errors";
import { playgroundResponse } from "./playground";
import { checkAdminRequest } from "./request-shape";
import { ADMIN_GRAPHQL_PATH, createAdminYoga, hasQuery, resultProcessHooks, type AdminYoga, type CreateAdminYogaOptions, type ResultProcessHook } from "./yoga";

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
      if (err instanceof AdminRequestError) return err.toResponse(err.status === 413 ? REFUSED_BODY_HEADERS : {});
      // The key could not be looked up: nothing ran, so no budget is charged (limits run later).
      if (asDatabaseUnavailable(err)) return new ServiceUnavailableError().toResponse();
      throw err;
    }
    const admin = (yoga ??= createAdminYoga(options));
    direct ??= directHooks(options);
    // The response format is decided before anything runs: yoga picks it only after execution, so
    // an unacceptable Accept used to commit a mutation and then answer an empty 406 (issue 29).
    const mediaType = await responseMediaType(admin, request);
    if (!mediaType) return notAcceptable().toResponse();
    const context: AdminServerContext = { credential, apiVersion, notes: {}, parsedBody: body };
    // The credential's database work shares connections fairly with everyone else's (lib/db/fair-gate.ts).
    const directly = direct.allowed && REGULAR_MEDIA_TYPES.has(mediaType) && answersDirectly(request, body);
    const response = await withDbLane(credentialKey(credential), () =>
      directly ? answerDirectly(admin, direct!, request, body as GraphQLParams, context, mediaType) : admin.fetch(request, context),
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
 * Whether the request can skip yoga's HTTP layer (answerDirectly): a JSON POST of one operation (no
 * batch), at the GraphQL path, with parameters of the right shape. Profile (docs/benchmarks.md,
 * "Admin pipeline"): the server adapter, the request-parser and onParams hooks and their promise
 * plumbing were a fifth of an empty operation's CPU time, for work whose outcome is known here.
 */
function answersDirectly(request: Request, body: unknown): boolean {
  if (request.method !== "POST" || body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const path = request.url.split("?")[0]!;
  if (!path.endsWith(ADMIN_GRAPHQL_PATH) && !path.endsWith(`${ADMIN_GRAPHQL_PATH}/`)) return false;
  const params = body as Record<string, unknown>;
  // Yoga's own parameter checks (useCheckGraphQLQueryParams): anything they would refuse goes to yoga.
  for (const key in params) if (params[key] != null && !YOGA_PARAMS.has(key)) return false;
  if (!hasQuery(params)) return false;
  return params.operationName == null || typeof params.operationName === "string";
}

/** The media types of yoga's regular (JSON) result processor: the ones answered directly. */
const REGULAR_MEDIA_TYPES = new Set(["application/graphql-response+json", "application/json"]);

/**
 * The media type this request's result will be sent in, or undefined when the Accept header allows
 * none (406), decided before parsing or execution by yoga's own rule: the server's onResultProcess
 * hooks (its useResultProcessors, and any plugin's) asked about a regular result, as yoga asks them
 * after execution. One copy of the rule, yoga's; the schema has no subscriptions or @defer, so every
 * result is a regular one. The hooks come from envelop's public onPluginInit (yoga.ts).
 */
async function responseMediaType(admin: AdminYoga, request: Request): Promise<string | undefined> {
  let chosen: string | undefined;
  for (const hook of resultProcessHooks(admin)) {
    await hook({
      request,
      result: {},
      acceptableMediaTypes: [],
      setResult: () => {},
      resultProcessor: undefined,
      setResultProcessor: (_processor: unknown, mediaType: string) => void (chosen = mediaType),
      serverContext: {},
    } as unknown as Parameters<ResultProcessHook>[0]);
  }
  return chosen;
}

/** GraphQL over HTTP: 406 and stop processing (RECOMMENDED), in the endpoint's own error format. */
const notAcceptable = () =>
  new AdminRequestError(
    "The Accept header allows no media type this endpoint answers in: accept application/graphql-response+json or application/json. Nothing was executed.",
    406,
    "NOT_ACCEPTABLE",
  );

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

