import type { OAuthClientInfo } from "../clients";

/** What every grant of the token endpoint (lib/oauth/token-endpoint.ts) is given. */
export interface GrantRequest {
  /** The authenticated client. */
  client: OAuthClientInfo;
  /** The token request's form fields. */
  form: Map<string, string>;
  /** The origin the token request came to: the code or refresh token must have been issued there. */
  issuer: string;
  now: Date;
}
