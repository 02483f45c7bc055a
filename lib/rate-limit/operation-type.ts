// Which per-minute counter an operation draws from.
import { getOperationAST, type DocumentNode } from "graphql";
import type { OperationType } from "./types";

// GraphQL's ignored tokens before the first definition: BOM, white space, line terminators,
// commas and `#` comments.
const LEADING_IGNORED = /^(?:[\uFEFF\t \n\r,]|#[^\n\r]*)*/;

/**
 * The spec's rule on the raw query string: a mutation when it starts with the `mutation` keyword
 * after leading ignored tokens (white space, commas, comments); everything else, introspection
 * included, is a query.
 */
export function operationTypeOfQuery(query: string): OperationType {
  const rest = query.replace(LEADING_IGNORED, "");
  return /^mutation(?![_0-9A-Za-z])/.test(rest) ? "mutations" : "queries";
}

/**
 * The same rule applied to the operation that actually runs. For a document with one operation
 * it equals operationTypeOfQuery; for several (`query A {…} mutation B {…}` with operationName B)
 * it counts what executes, so a leading dummy query cannot move mutations to the query budget.
 */
export function operationTypeOfDocument(document: DocumentNode, operationName?: string | null): OperationType {
  const operation = getOperationAST(document, operationName ?? undefined);
  return operation?.operation === "mutation" ? "mutations" : "queries";
}
