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
import { createAdminYoga, type AdminYoga, type CreateAdminYogaOptions } from "./yoga";

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
    const context: AdminServerContext = { credential, apiVersion, notes: {}, parsedBody: body };
    // The credential's database work shares connections fairly with everyone else's (lib/db/fair-gate.ts).
    const response = await withDbLane(credentialKey(credential), () => admin.fetch(request, context));
    response.headers.set("api-version", apiVersion);
    if (context.notes.idempotentReplay) response.headers.set("idempotent-replayed", "true");
    return response;
  }
}
