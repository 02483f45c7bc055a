// Which per-minute counter an operation draws from.
import { getOperationAST, type DocumentNode } from "graphql";
import type { OperationType } from "./types";

/**
 * The one classifier of operations, shared by the per-minute limiter and the Admin API's
 * idempotency (lib/admin-api/yoga.ts). The spec's rule: a mutation when the query string starts
 * with the `mutation` keyword (after GraphQL's ignored tokens: BOM, white space, commas,
 * comments); everything else, introspection and subscriptions included, is a query. Applied to
 * the operation that actually runs: for a one-operation document that is the string rule, and for
 * several (`query A {…} mutation B {…}` with operationName B) a leading dummy query cannot move
 * mutations to the query budget or out of idempotency. Only parsed, validated documents reach the
 * limiter, so `MUTATION {…}` or `mutationX {…}` (syntax errors) never need classifying.
 */
export function operationTypeOfDocument(document: DocumentNode, operationName?: string | null): OperationType {
  const operation = getOperationAST(document, operationName ?? undefined);
  return operation?.operation === "mutation" ? "mutations" : "queries";
}
