import { createGraphQLError, createYoga, type Plugin, type YogaServerInstance } from "graphql-yoga";
import type { AdminContext, AdminServerContext } from "./context";
import { idempotencyPlugin } from "./idempotency";
import { operationLimitsPlugin } from "./operation-limits";
import { operationTypeOfQuery } from "../rate-limit/operation-type";
import { adminSchema } from "./schema";
import { databaseUnavailablePlugin } from "./unavailable";

export const ADMIN_GRAPHQL_PATH = "/admin/graphql";

export interface CreateAdminYogaOptions {
  /**
   * Extra envelop/yoga plugins (e.g. rate limits). By the time their onExecute hooks run, the
   * request is authenticated (`context.credential`), its API-Version accepted, and the operation
   * parsed and validated; `context.operationType` says mutation or query. They run before the
   * idempotency wrapper and execution, may stop execution with setResultAndStopExecution (an error
   * with `extensions.http.status`/`headers` sets the response status and headers), and may set
   * headers on every response in `onResponse`.
   */
  plugins?: Plugin<AdminContext>[];
}

export type AdminYoga = YogaServerInstance<AdminServerContext, AdminContext>;

export function createAdminYoga(options: CreateAdminYogaOptions = {}): AdminYoga {
  return createYoga<AdminServerContext, AdminContext>({
    schema: adminSchema,
    graphqlEndpoint: ADMIN_GRAPHQL_PATH,
    // The playground is rendered by the handler from bundled assets (no CDN).
    graphiql: false,
    landingPage: false,
    // CORS is answered by the handler (lib/admin-api/cors.ts), the same on every response.
    cors: false,
    // The same classification the per-minute limiter uses, so idempotency and limits agree.
    context: ({ params }) =>
      ({ operationType: operationTypeOfQuery(params.query ?? "") === "mutations" ? "mutation" : "query" }) as Partial<AdminContext> as AdminContext,
    // Execute wrappers nest in order: the last one listed is the outermost.
    plugins: [
      missingQueryIs400(),
      operationLimitsPlugin<AdminContext & Record<string, unknown>>() as Plugin<AdminContext>,
      ...(options.plugins ?? []),
      idempotencyPlugin(),
      databaseUnavailablePlugin(),
    ],
  });
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
        if (list.some((p) => typeof p?.query !== "string" || p.query.trim() === "")) {
          throw createGraphQLError("Must provide a query string.", { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
        }
      },
    }),
  };
}
