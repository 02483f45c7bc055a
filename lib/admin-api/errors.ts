import { DATABASE_RETRY_AFTER_SECONDS, retryAfterHeaders } from "../db/unavailable";

// Errors that stop an Admin API request before GraphQL runs. They carry their HTTP status and
// the wire code put in `extensions.code`; the handler renders them as a top-level `errors` array.
export class AdminRequestError extends Error {
  override name = "AdminRequestError";
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toResponse(headers: HeadersInit = {}): Response {
    return Response.json(
      { errors: [{ message: this.message, extensions: { code: this.code, ...this.extensions } }] },
      { status: this.status, headers: { "cache-control": "no-store", ...Object.fromEntries(new Headers(headers)) } },
    );
  }
}

export class AuthenticationError extends AdminRequestError {
  override name = "AuthenticationError";
  constructor(message: string) {
    super(message, 401, "UNAUTHENTICATED");
  }
}

export class ApiVersionError extends AdminRequestError {
  override name = "ApiVersionError";
  constructor(message: string, accepted: readonly string[]) {
    super(message, 400, "INVALID_API_VERSION", { acceptedVersions: accepted });
  }
}

/** The database is unavailable (lib/db/unavailable.ts): 503 with Retry-After; nothing was executed. */
export class ServiceUnavailableError extends AdminRequestError {
  override name = "ServiceUnavailableError";
  constructor() {
    super(SERVICE_UNAVAILABLE_MESSAGE, 503, "SERVICE_UNAVAILABLE", { retryAfter: DATABASE_RETRY_AFTER_SECONDS });
  }

  override toResponse(headers: HeadersInit = {}): Response {
    return super.toResponse({ ...retryAfterHeaders(), ...Object.fromEntries(new Headers(headers)) });
  }
}

export const SERVICE_UNAVAILABLE_MESSAGE =
  `The service is temporarily unavailable: its database cannot be reached. Nothing was changed; retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`;
