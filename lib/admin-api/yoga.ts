import { createGraphQLError, createYoga, type Plugin, type YogaServerInstance } from "graphql-yoga";
import type { AdminContext, AdminServerContext } from "./context";
import { contentResultsPlugin } from "./content-results";
import { idempotencyPlugin } from "./idempotency";
import { operationLimitsPlugin } from "./operation-limits";
import { operationTypeOfDocument } from "../rate-limit/operation-type";
import { adminSchema } from "./schema";
import { databaseUnavailablePlugin } from "./unavailable";
import { shapeValidationCachePlugin } from "./validation-cache";

import { ADMIN_GRAPHQL_PATH } from "./path";

export { ADMIN_GRAPHQL_PATH };

export interface CreateAdminYogaOptions {
  /**
   * Extra envelop/yoga plugins (e.g. rate limits). By the time their onExecute hooks run, the
   * request is authenticated (`context.credential`), its API-Version accepted, and the operation
   * parsed and validated; `context.operationType` says mutation or query. Their execute wrappers
   * run outside the idempotency wrapper (so a limiter decides before a key is claimed and sees
   * every replay), may stop execution with setResultAndStopExecution (an error with
   * `extensions.http.status`/`headers` sets the response status and headers), and may set headers
   * on every response in `onResponse`.
   */
  plugins?: Plugin<AdminContext>[];
}

export type AdminYoga = YogaServerInstance<AdminServerContext, AdminContext>;

export type ResultProcessHook = NonNullable<Plugin["onResultProcess"]>;

// Each server's list of plugins as envelop's public onPluginInit hands it over (the live list, with
// yoga's own result processors and plugins added by plugins), for resultProcessHooks().
const pluginLists = new WeakMap<AdminYoga, readonly Plugin<AdminContext>[]>();

/**
 * The server's onResultProcess hooks (yoga's useResultProcessors and any plugin's), in yoga's order:
 * the handler asks them which media type a result would be sent in before anything executes.
 */
export function resultProcessHooks(admin: AdminYoga): ResultProcessHook[] {
  const plugins = pluginLists.get(admin);
  if (!plugins) throw new Error("resultProcessHooks: not a server made by createAdminYoga");
  return plugins.flatMap((p) => (p.onResultProcess ? [p.onResultProcess as ResultProcessHook] : []));
}

export function createAdminYoga(options: CreateAdminYogaOptions = {}): AdminYoga {
  let plugins: readonly Plugin<AdminContext>[] = [];
  const admin = createYoga<AdminServerContext, AdminContext>({
    schema: adminSchema,
    graphqlEndpoint: ADMIN_GRAPHQL_PATH,
    // The playground is rendered by the handler from bundled assets (no CDN).
    graphiql: false,
    landingPage: false,
    // CORS is answered by the handler (lib/admin-api/cors.ts), the same on every response.
    cors: false,
    // The handler reads the body within ADMIN_MAX_BODY_BYTES (request-shape.ts) before yoga runs;
    // yoga's own limit would pipe every body through a TransformStream a second time.
    maxRequestBodySize: false,
    // Execute wrappers nest in order: the last one listed is the outermost. So execution (or a
    // cached content answer) runs inside idempotency, inside the extra plugins (rate limits),
    // inside the outage mapping.
    plugins: [
      { onPluginInit: (init: { plugins: Plugin<AdminContext>[] }) => void (plugins = init.plugins) } as Plugin<AdminContext>,
      preParsedBody(),
      missingQueryIs400(),
      operationTypePlugin(),
      operationLimitsPlugin<AdminContext & Record<string, unknown>>() as Plugin<AdminContext>,
      contentResultsPlugin(adminSchema),
      idempotencyPlugin(),
      ...(options.plugins ?? []),
      databaseUnavailablePlugin(),
      // Last, so its validate function is the one used; it checks the final rule list on each call.
      shapeValidationCachePlugin<AdminContext & Record<string, unknown>>() as Plugin<AdminContext>,
    ],
  });
  pluginLists.set(admin, plugins);
  return admin;
}

/**
 * `context.operationType` from the operation that runs, by the per-minute limiter's classifier
 * (lib/rate-limit/operation-type.ts): one rule for the limiter and for idempotency, so
 * `query A {…} mutation B {…}` run as B is a mutation for both.
 */
function operationTypePlugin(): Plugin<AdminContext> {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as AdminContext;
      ctx.operationType = operationTypeOfDocument(args.document, args.operationName) === "mutations" ? "mutation" : "query";
    },
  };
}

/**
 * The body the handler already parsed (context.parsedBody) is the request parser's result: reading
 * and parsing it again, through a copied Request, was a fifth of an empty operation's CPU time.
 * User plugins register after yoga's parsers, so this choice wins for the requests it applies to.
 */
function preParsedBody(): Plugin<AdminContext> {
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      const body = (serverContext as Partial<AdminServerContext> | undefined)?.parsedBody;
      if (body !== undefined) setRequestParser(() => body as never);
    },
  };
}

/**
 * A request without a query is malformed whatever the Accept header: 400. (Yoga answers 200 to
 * application/json clients, which the GraphQL-over-HTTP spec allows but our contract does not.)
 */
function missingQueryIs400(): Plugin<AdminContext> {
  return {
    onRequestParse: () => ({
      onRequestParseDone({ requestParserResult }) {
        const list = Array.isArray(requestParserResult) ? requestParserResult : [requestParserResult];
        if (!list.every(hasQuery)) {
          throw createGraphQLError("Must provide a query string.", { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
        }
      },
    }),
  };
}

/** The rule of missingQueryIs400; the handler's direct path leaves requests without one to it. */
export function hasQuery(params: { query?: unknown } | null | undefined): boolean {
  return typeof params?.query === "string" && params.query.trim() !== "";
}
