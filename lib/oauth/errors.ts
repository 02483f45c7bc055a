import { asDatabaseUnavailable, DATABASE_RETRY_AFTER_SECONDS } from "../db/unavailable";

/** An OAuth error as it goes on the wire: HTTP status, `error` code and a human description. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
    this.name = new.target.name;
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

/**
 * One class per wire code, so callers throw and test by name (`instanceof InvalidGrantError`) as
 * node-oidc-provider's errors do; the factory keeps the status and code in one visible line each.
 * With a fallback the description may be left out; without one every throw must say why.
 */
function kind(status: number, code: string) {
  return class extends OAuthError {
    constructor(description: string) {
      super(status, code, description);
    }
  };
}
function kindWithDefault(status: number, code: string, fallback: string) {
  return class extends OAuthError {
    constructor(description: string = fallback) {
      super(status, code, description);
    }
  };
}

export class InvalidRequestError extends kind(400, "invalid_request") {}
/** A body over the endpoint's limit: 413 with OAuth's error shape (RFC 6749 has no code for it). */
export class PayloadTooLargeError extends kind(413, "invalid_request") {}
export class InvalidClientError extends kindWithDefault(401, "invalid_client", "Client authentication failed") {}
export class InvalidGrantError extends kind(400, "invalid_grant") {}
export class UnauthorizedClientError extends kind(400, "unauthorized_client") {}
export class UnsupportedGrantTypeError extends kindWithDefault(400, "unsupported_grant_type", "Only authorization_code and refresh_token are supported") {}
export class InvalidTargetError extends kind(400, "invalid_target") {}
export class InvalidTokenError extends kindWithDefault(401, "invalid_token", "The access token is missing, expired or revoked") {}
export class InvalidClientMetadataError extends kind(400, "invalid_client_metadata") {}
export class InvalidRedirectUriError extends kind(400, "invalid_redirect_uri") {}
export class AccessDeniedError extends kind(400, "access_denied") {}
/** OpenID Connect Core §3.1.2.6: `prompt=none` and the member must sign in. */
export class LoginRequiredError extends kindWithDefault(400, "login_required", "The member must sign in, and prompt=none allows no page") {}
/** OpenID Connect Core §3.1.2.6: `prompt=none` and the member must consent. */
export class ConsentRequiredError extends kindWithDefault(400, "consent_required", "The member has not consented to this request, and prompt=none allows no page") {}
/** OpenID Connect Core §3.1.2.6: `prompt=none` and another page is needed (the school picker). */
export class InteractionRequiredError extends kind(400, "interaction_required") {}
export class UnsupportedResponseTypeError extends kindWithDefault(400, "unsupported_response_type", "response_type must be code") {}
export class NotFoundError extends kindWithDefault(404, "not_found", "No school answers at this address") {}

/** The one code whose status varies: 400 at the authorization and token endpoints, 403 at a resource (RFC 6750 §3.1). */
export class InvalidScopeError extends OAuthError {
  constructor(description: string, status = 400) {
    super(status, "invalid_scope", description);
  }
}

/**
 * The database is unavailable (lib/db/unavailable.ts). RFC 6749 §4.1.2.1 names
 * temporarily_unavailable for the authorization endpoint; we answer it, with 503 and Retry-After,
 * from every OAuth endpoint so a client has one code to retry on.
 */
export class TemporarilyUnavailableError extends OAuthError {
  readonly retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
  constructor(
    description = `The service is temporarily unavailable; retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds`,
  ) {
    super(503, "temporarily_unavailable", description);
  }
}

/** `error` as the OAuthError it is answered with, or null when it is a real bug. */
export function asOAuthError(error: unknown): OAuthError | null {
  if (error instanceof OAuthError) return error;
  return asDatabaseUnavailable(error) ? new TemporarilyUnavailableError() : null;
}
