export type OperationType = "mutation" | "query";

/**
 * The spec's rule for rate limits: an operation is a mutation when its query string starts with
 * `mutation`; everything else (introspection included) is a query. Leading whitespace is ignored.
 */
export function operationTypeOf(query: string | null | undefined): OperationType {
  return typeof query === "string" && query.trimStart().startsWith("mutation") ? "mutation" : "query";
}
