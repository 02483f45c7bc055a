/** A problem with an `npm run oauth-client` command or its input; printed as one line. */
export class OAuthClientCommandError extends Error {
  override name = "OAuthClientCommandError";
}
