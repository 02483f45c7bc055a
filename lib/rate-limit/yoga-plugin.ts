// Adapter for graphql-yoga (an envelop plugin). It runs at execution, i.e. after authentication,
// API-Version and GraphQL parse/validation: requests refused earlier never reach the limiters and
// carry no budget headers. The credential comes from the context (`context.credential`).
import type { ExecutionArgs, ExecutionResult } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { Credential } from "../credentials/credential";
import { withDbCancellation } from "../db/lane";
import type { RateLimiter } from "./limiter";
import { operationTypeOfDocument } from "./operation-type";
import type { RateLimitState } from "./state";
import { budgetHeaders, rateLimitExtension, refusalHeaders } from "./wire";

export interface RateLimitPluginOptions {
  /** The limiter, or a function returning it (built lazily from env on first use). */
  limiter: RateLimiter | (() => RateLimiter);
  /** Finds the authenticated credential; defaults to `context.credential`. No credential: no limits. */
  credential?: (context: Record<string, unknown>) => Credential | null | undefined;
}

interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
}

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> =>
  typeof v === "object" && v !== null && Symbol.asyncIterator in v;

/** Adds `extensions.rate_limit` and the budget headers (and a status) to a result. */
export function withRateLimitState(
  result: ExecutionResult,
  state: RateLimitState,
  http: { status?: number; headers?: Record<string, string> } = {},
): ExecutionResult {
  const extensions = (result.extensions ?? {}) as Record<string, unknown> & { http?: HttpExtension };
  const previous = extensions.http ?? {};
  return {
    ...result,
    extensions: {
      ...extensions,
      rate_limit: rateLimitExtension(state),
      // graphql-yoga turns `extensions.http` into the response's status and headers and strips it.
      http: {
        ...previous,
        ...(http.status ? { status: http.status } : {}),
        headers: { ...previous.headers, ...budgetHeaders(state), ...http.headers },
      },
    },
  };
}

export function rateLimitPlugin<TContext extends object = object>(options: RateLimitPluginOptions): Plugin<TContext> {
  const limiterOf = typeof options.limiter === "function" ? options.limiter : () => options.limiter as RateLimiter;
  const credentialOf = options.credential ?? ((context) => context.credential as Credential | undefined);
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const context = (args.contextValue ?? {}) as unknown as Record<string, unknown> & { request?: Request };
      const credential = credentialOf(context);
      if (!credential) return;
      const operationType = operationTypeOfDocument(args.document, args.operationName);
      setExecuteFn(async (execArgs: ExecutionArgs) => {
        const limiter = limiterOf();
        const outcome = await limiter.run({ credential, operationType, signal: context.request?.signal }, (signal) =>
          // Past the time limit (or once the client left) the executor starts no more resolvers and
          // the database gate refuses the operation's queued statements (lib/db/lane.ts).
          withDbCancellation(signal, () => executeFn({ ...execArgs, signal } as ExecutionArgs)),
        );
        switch (outcome.outcome) {
          case "refused":
            return withRateLimitState({ errors: [outcome.error.toGraphQLError()] }, outcome.state, {
              status: outcome.error.status,
              headers: refusalHeaders(outcome.error),
            });
          case "completed":
            // Streams (defer/subscriptions) are charged for producing the stream only.
            if (isAsyncIterable(outcome.value)) return outcome.value;
            return withRateLimitState(outcome.value as ExecutionResult, outcome.state);
          case "failed":
            throw outcome.error;
          case "timed_out":
            return withRateLimitState(
              {
                errors: [
                  createGraphQLError(
                    `Operation timed out after ${limiter.operationTimeoutMs} ms and was stopped: nothing more of it runs. ` +
                      "A write already committed stays (each mutation is all or nothing); query with a smaller page or fewer fields.",
                    { extensions: { code: "OPERATION_TIMEOUT", timeout_ms: limiter.operationTimeoutMs } },
                  ),
                ],
              },
              outcome.state,
              { status: 504 },
            );
          case "aborted":
            // Nobody reads this: the client has gone.
            return withRateLimitState(
              { errors: [createGraphQLError("The client closed the request.", { extensions: { code: "CLIENT_CLOSED_REQUEST" } })] },
              outcome.state,
              { status: 499 },
            );
        }
      });
    },
  };
}
