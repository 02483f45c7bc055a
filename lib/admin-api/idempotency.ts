import { Source, type ExecutionResult, type GraphQLError, type GraphQLFormattedError, type SourceLocation } from "graphql";
import { createGraphQLError, maskError, type Plugin } from "graphql-yoga";
import { now as clockNow } from "../clock";
import { isValidIdempotencyKey, requestHashOf, runOnce } from "../idempotency/run-once";
import type { AdminContext } from "./context";
import { withUnavailableErrors } from "./unavailable";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export { IDEMPOTENCY_CLAIM_LEASE_MS, IDEMPOTENCY_WAIT_MS } from "../idempotency/run-once";

/** Yoga's message for an error it masks (its default). */
const UNEXPECTED_MESSAGE = "Unexpected error.";

const refuse = (message: string, code: string, status: number, headers?: Record<string, string>): ExecutionResult => ({
  errors: [createGraphQLError(message, { extensions: { code, http: { status, ...(headers ? { headers } : {}) } } })],
});

/**
 * Whether any mutation of the operation produced its payload. Each mutation field commits in its
 * own transaction and reports its domain failures in its payload, so a field that resolved may have
 * committed, and one that did not (null with an unexpected error) committed nothing.
 */
function anyPayload(result: ExecutionResult): boolean {
  const data = result.data as Record<string, unknown> | null | undefined;
  return !!data && Object.values(data).some((v) => v !== null && v !== undefined);
}

/**
 * The copy a replay answers with: what the client got, i.e. outages as SERVICE_UNAVAILABLE and
 * unexpected errors masked as yoga masks them (never an internal message stored for 24 hours),
 * without a secret shown once (a new webhook signing secret answers null in a replay, as the MCP
 * tools do). The budget state is not part of it: the limiter, outside this wrapper, adds the state
 * after the replay's own charge.
 */
function replayCopy(result: ExecutionResult, shownOnce: Set<string>): string {
  const outward = withUnavailableErrors(result);
  const errors = outward.errors?.map((e) => (maskError(e, UNEXPECTED_MESSAGE, false) as GraphQLError).toJSON());
  const copy = { ...outward, ...(errors ? { errors } : {}) };
  return JSON.stringify(copy, (_key, v: unknown) => (typeof v === "string" && shownOnce.has(v) ? null : v));
}

/** Offsets in `query` of line/column locations (yoga serializes an error's locations from these). */
function positionsOf(query: string, locations: readonly SourceLocation[]): number[] {
  const lineStarts = [0];
  for (const m of query.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(m.index + m[0].length);
  return locations.map((l) => (lineStarts[l.line - 1] ?? 0) + l.column - 1);
}

/**
 * A stored copy as a result yoga passes through unchanged: its errors are what the client saw, so
 * they are not masked again, and keep their path and locations (the replay's query is the first
 * request's, the body hash says so).
 */
function fromReplayCopy(body: string, query: string): ExecutionResult {
  const stored = JSON.parse(body) as Omit<ExecutionResult, "errors"> & { errors?: GraphQLFormattedError[] };
  if (!stored.errors) return stored as ExecutionResult;
  const source = new Source(query);
  // Yoga's own constructor (its copy of graphql), or yoga would mask the errors again.
  const errors = stored.errors.map((e) =>
    createGraphQLError(e.message, {
      path: e.path,
      extensions: e.extensions,
      ...(e.locations ? { source, positions: positionsOf(query, e.locations) } : {}),
    }),
  );
  return { ...stored, errors };
}

/**
 * Idempotency-Key on mutations (lib/idempotency/run-once.ts, per API key): a repeat with the same
 * body gets the stored result, the same key with another body is refused (422), and a repeat while
 * the first still runs waits for it briefly, then replays it or is refused (409, Retry-After).
 *
 * Kept unless nothing committed: a result in which some mutation produced its payload is stored
 * whole (other aliases' errors included), so a retry of a partly committed batch replays instead
 * of applying the committed aliases twice. Only a result where every mutation failed unexpectedly
 * (nothing committed, e.g. the database was unreachable) releases the key so a retry executes.
 *
 * Runs inside the rate-limit wrapper (lib/admin-api/yoga.ts): the limiter decides before a key is
 * claimed, and a replay is counted and carries the budget state after its own charge.
 */
export function idempotencyPlugin(): Plugin<AdminContext> {
  return {
    onExecute({ setExecuteFn, executeFn, args }) {
      const ctx = args.contextValue as AdminContext;
      const key = ctx.request.headers.get(IDEMPOTENCY_HEADER);
      if (key === null || ctx.operationType !== "mutation") return;
      setExecuteFn(async (execArgs) => {
        if (!isValidIdempotencyKey(key)) {
          return refuse("Idempotency-Key must be 1 to 255 visible ASCII characters", "INVALID_IDEMPOTENCY_KEY", 400);
        }
        const { query, variables, operationName } = ctx.params;
        const once = await runOnce(
          {
            schoolId: ctx.credential.schoolId,
            owner: { apiKeyId: ctx.credential.id },
            key,
            requestHash: requestHashOf({ query: query ?? null, variables: variables ?? null, operationName: operationName ?? null }),
            now: clockNow(),
          },
          async () => {
            const result = (await executeFn(execArgs)) as ExecutionResult;
            if (!anyPayload(result)) return { value: result, body: null };
            return { value: result, body: replayCopy(result, new Set(ctx.notes.shownOnce)) };
          },
        );
        switch (once.kind) {
          case "executed":
            return once.value;
          case "replayed":
            ctx.notes.idempotentReplay = true;
            return fromReplayCopy(once.body, query ?? "");
          case "reused":
            return refuse(
              "This Idempotency-Key was already used with a different request body; use a new key for a new request",
              "IDEMPOTENCY_KEY_REUSED",
              422,
            );
          case "in_progress":
            return refuse("A request with this Idempotency-Key is still being processed; retry shortly", "IDEMPOTENCY_KEY_IN_USE", 409, {
              "Retry-After": "1",
            });
        }
      });
    },
  };
}
