import type { YogaInitialContext } from "graphql-yoga";
import type { ApiVersion } from "./api-version";
import type { AdminCredential } from "./authenticate";

/** Per-request facts the handler establishes before GraphQL runs (yoga's server context). */
export interface AdminServerContext {
  /** The authenticated caller; its schoolId scopes every read and write. */
  credential: AdminCredential;
  apiVersion: ApiVersion;
  /**
   * The JSON body the handler already read and checked (request-shape.ts): yoga takes it as its
   * parser's result instead of reading the body again. Undefined for GET and non-JSON bodies.
   */
  parsedBody?: unknown;
  /** Mutable notes plugins leave for the handler (e.g. an idempotent replay). */
  notes: {
    idempotentReplay?: boolean;
    /** Secrets this operation shows once (webhook signing secrets): kept out of any stored replay copy. */
    shownOnce?: string[];
  };
}

/** The GraphQL context every resolver and plugin sees. */
export interface AdminContext extends YogaInitialContext, AdminServerContext {
  /**
   * "mutation" when the operation that runs is a mutation (for a one-operation document: the query
   * string starts with `mutation` after GraphQL's ignored tokens, the spec's rule), else "query".
   * Set at execution by the classifier the per-minute limiter uses (lib/rate-limit/operation-type.ts).
   */
  operationType: "mutation" | "query";
}
