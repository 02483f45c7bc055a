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

export class InvalidRequestError extends OAuthError {
  constructor(description: string) {
    super(400, "invalid_request", description);
  }
}

/** A body over the endpoint's limit: 413 with OAuth's error shape (RFC 6749 has no code for it). */
export class PayloadTooLargeError extends OAuthError {
  constructor(description: string) {
    super(413, "invalid_request", description);
  }
}

export class InvalidClientError extends OAuthError {
  constructor(description = "Client authentication failed") {
    super(401, "invalid_client", description);
  }
}

export class InvalidGrantError extends OAuthError {
  constructor(description: string) {
    super(400, "invalid_grant", description);
  }
}

export class UnauthorizedClientError extends OAuthError {
  constructor(description: string) {
    super(400, "unauthorized_client", description);
  }
}

export class UnsupportedGrantTypeError extends OAuthError {
  constructor(description = "Only authorization_code and refresh_token are supported") {
    super(400, "unsupported_grant_type", description);
  }
}

export class InvalidScopeError extends OAuthError {
  constructor(description: string, status = 400) {
    super(status, "invalid_scope", description);
  }
}

export class InvalidTargetError extends OAuthError {
  constructor(description: string) {
    super(400, "invalid_target", description);
  }
}

export class InvalidTokenError extends OAuthError {
  constructor(description = "The access token is missing, expired or revoked") {
    super(401, "invalid_token", description);
  }
}

export class InvalidClientMetadataError extends OAuthError {
  constructor(description: string) {
    super(400, "invalid_client_metadata", description);
  }
}

export class InvalidRedirectUriError extends OAuthError {
  constructor(description: string) {
    super(400, "invalid_redirect_uri", description);
  }
}

export class AccessDeniedError extends OAuthError {
  constructor(description: string) {
    super(400, "access_denied", description);
  }
}

/** OpenID Connect Core §3.1.2.6: `prompt=none` and the member must sign in. */
export class LoginRequiredError extends OAuthError {
  constructor(description = "The member must sign in, and prompt=none allows no page") {
    super(400, "login_required", description);
  }
}

/** OpenID Connect Core §3.1.2.6: `prompt=none` and the member must consent. */
export class ConsentRequiredError extends OAuthError {
  constructor(description = "The member has not consented to this request, and prompt=none allows no page") {
    super(400, "consent_required", description);
  }
}

/** OpenID Connect Core §3.1.2.6: `prompt=none` and another page is needed (the school picker). */
export class InteractionRequiredError extends OAuthError {
  constructor(description: string) {
    super(400, "interaction_required", description);
  }
}

export class UnsupportedResponseTypeError extends OAuthError {
  constructor(description = "response_type must be code") {
    super(400, "unsupported_response_type", description);
  }
}

export class NotFoundError extends OAuthError {
  constructor(description = "No school answers at this address") {
    super(404, "not_found", description);
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
