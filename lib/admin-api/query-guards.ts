import { createGraphQLError } from "graphql-yoga";
import { UNAUTHORIZED, type AdminOperation } from "../credentials/permissions";
import { QueryInputError } from "../core/page";
import type { AdminContext } from "./context";

export function allowed(ctx: AdminContext, operation: AdminOperation): boolean {
  return ctx.credential.permissions.includes(operation);
}

// Queries have no payload to carry "Unauthorized": the field is null with a FORBIDDEN error.
export function requireQueryPermission(ctx: AdminContext, operation: AdminOperation): void {
  if (!allowed(ctx, operation)) throw createGraphQLError(UNAUTHORIZED, { extensions: { code: "FORBIDDEN" } });
}

/** A domain QueryInputError (bad page size, cursor, filter) as GraphQL's BAD_USER_INPUT. */
export function inputError<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err: unknown) => {
    if (err instanceof QueryInputError) throw createGraphQLError(err.message, { extensions: { code: "BAD_USER_INPUT" } });
    throw err;
  });
}
