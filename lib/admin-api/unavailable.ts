// Database outages during GraphQL execution: the operation's errors become SERVICE_UNAVAILABLE and
// the response a 503 with Retry-After, instead of "Unexpected error." with 200 or 500.
import type { ExecutionResult, GraphQLError } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { asDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import type { AdminContext } from "./context";
import { SERVICE_UNAVAILABLE_MESSAGE } from "./errors";

interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
}

const http = (): HttpExtension => ({ status: 503, headers: { "Retry-After": retryAfterHeaders()["retry-after"]! } });

function unavailableError(path?: GraphQLError["path"]): GraphQLError {
  return createGraphQLError(SERVICE_UNAVAILABLE_MESSAGE, { path, extensions: { code: "SERVICE_UNAVAILABLE", http: http() } });
}

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> => typeof v === "object" && v !== null && Symbol.asyncIterator in v;

/**
 * The errors of a result as the client gets them when the database went away: each error an outage
 * caused becomes SERVICE_UNAVAILABLE (at its path) and the response a 503 with Retry-After. Fields
 * that did complete keep their data: with aliased mutations, a committed one is still reported,
 * and only the ones the outage cut carry the error. Also used for the Idempotency-Key replay copy.
 */
export function withUnavailableErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  let cut = false;
  const errors = result.errors.map((e) => {
    if (!asDatabaseUnavailable(e.originalError ?? e)) return e;
    cut = true;
    return unavailableError(e.path);
  });
  if (!cut) return result;
  const extensions = (result.extensions ?? {}) as Record<string, unknown> & { http?: HttpExtension };
  const previous = extensions.http ?? {};
  return {
    ...result,
    errors,
    extensions: { ...extensions, http: { ...previous, status: 503, headers: { ...previous.headers, ...http().headers } } },
  };
}

/**
 * Must be the last plugin (the outermost execute wrapper), so it also sees what the rate-limit and
 * idempotency wrappers throw.
 */
export function databaseUnavailablePlugin(): Plugin<AdminContext> {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (args) => {
        let result: ExecutionResult;
        try {
          result = (await executeFn(args)) as ExecutionResult;
        } catch (err) {
          if (!asDatabaseUnavailable(err)) throw err;
          return { errors: [unavailableError()], extensions: { http: http() } };
        }
        return isAsyncIterable(result) ? result : withUnavailableErrors(result);
      });
    },
  };
}
