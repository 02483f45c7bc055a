import type { ExecutionResult } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { now as clockNow } from "../clock";
import { isValidIdempotencyKey, requestHashOf, runOnce } from "../idempotency/run-once";
import type { AdminContext } from "./context";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export { IDEMPOTENCY_CLAIM_LEASE_MS } from "../idempotency/run-once";

const refuse = (message: string, code: string, status: number): ExecutionResult => ({
  errors: [createGraphQLError(message, { extensions: { code, http: { status } } })],
});

/**
 * Idempotency-Key on mutations (lib/idempotency/run-once.ts, per API key): a repeat with the same
 * body gets the stored result, the same key with another body is refused (422), and a repeat while
 * the first still runs is refused (409). A result with top-level errors (unexpected failures) is
 * not stored, so a retry with the same key executes; outages and abandoned claims are handled in
 * runOnce. Runs as the innermost execute wrapper, so plugins added before it (rate limits) still
 * see and count every repeat.
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
            // Mutations report their failures in the payload; a top-level error is unexpected
            // (e.g. the database was unreachable), so release the key rather than replay it.
            if (result.errors?.length) return { value: result, body: null };
            // A secret shown once (a new webhook signing secret) is not kept: a replay answers null
            // in its place, as the MCP tools do, rather than storing it in the clear for 24 hours.
            const shownOnce = new Set(ctx.notes.shownOnce);
            return { value: result, body: JSON.stringify(result, (_key, v: unknown) => (typeof v === "string" && shownOnce.has(v) ? null : v)) };
          },
        );
        switch (once.kind) {
          case "executed":
            return once.value;
          case "replayed":
            ctx.notes.idempotentReplay = true;
            return JSON.parse(once.body) as ExecutionResult;
          case "reused":
            return refuse(
              "This Idempotency-Key was already used with a different request body; use a new key for a new request",
              "IDEMPOTENCY_KEY_REUSED",
              422,
            );
          case "in_progress":
            return refuse("A request with this Idempotency-Key is still being processed; retry shortly", "IDEMPOTENCY_KEY_IN_USE", 409);
        }
      });
    },
  };
}
