// The Admin API's path, in a module of its own so that proxy.ts can match it without loading the
// GraphQL stack.
export const ADMIN_GRAPHQL_PATH = "/admin/graphql";
