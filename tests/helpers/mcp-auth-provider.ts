import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * An MCP SDK OAuth client provider for tests: it records the authorization URL instead of opening
 * a browser (the test drives one, or plain HTTP), and keeps client information and tokens in memory.
 * Pass client information for a pre-registered client, or a metadata document URL for a CIMD client.
 */
export class RecordingAuthProvider implements OAuthClientProvider {
  readonly clientMetadata: OAuthClientMetadata;
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(
    readonly redirectUrl: string,
    info: OAuthClientInformationMixed | undefined,
    readonly clientMetadataUrl?: string,
  ) {
    this.info = info;
    this.clientMetadata = { client_name: "Test MCP Agent", redirect_uris: [redirectUrl], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}
