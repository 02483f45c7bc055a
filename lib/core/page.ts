export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** A bad argument to a query; rendered as a GraphQL error with code BAD_USER_INPUT. */
export class QueryInputError extends Error {
  override name = "QueryInputError";
}

export function pageSize(first: number | null | undefined): number {
  const n = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
    throw new QueryInputError(`first must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  return n;
}
