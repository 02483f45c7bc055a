import { MAX_REDIRECT_URIS } from "../client-admin/create-client";
import { isAcceptableRedirectUri } from "../redirect-uri";
import { formatScope, parseScope, SUPPORTED_SCOPES, unknownScopes } from "../scopes";

// The console's wording of the client rules (the CLI's own, with its flag names, are in
// ../client-admin/create-client.ts, which checks them again).

export const APP_NOT_FOUND = "App not found";
export const APP_NAME_INVALID = "The name must be 1 to 200 characters";
export const REDIRECT_URIS_REQUIRED = "Give at least one redirect URI";
export const TOO_MANY_REDIRECT_URIS = `Give at most ${MAX_REDIRECT_URIS} redirect URIs`;
export const SCOPE_REQUIRED = `Choose at least one scope (${SUPPORTED_SCOPES.join(", ")})`;

export function checkAppName(raw: string): { name: string } | { error: string } {
  const name = raw.trim();
  return !name || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name) ? { error: APP_NAME_INVALID } : { name };
}

export function checkAppRedirectUris(raw: readonly string[]): { redirectUris: string[] } | { error: string } {
  const uris = [...new Set(raw.map((u) => u.trim()).filter(Boolean))];
  if (!uris.length) return { error: REDIRECT_URIS_REQUIRED };
  if (uris.length > MAX_REDIRECT_URIS) return { error: TOO_MANY_REDIRECT_URIS };
  const bad = uris.find((u) => u.length > 2048 || !isAcceptableRedirectUri(u));
  if (bad !== undefined) {
    return { error: `Redirect URI ${JSON.stringify(bad.slice(0, 100))} must be an https URL (or http on a loopback address) without a fragment or credentials` };
  }
  return { redirectUris: uris };
}

export function checkAppScope(raw: readonly string[]): { scope: string } | { error: string } {
  const scopes = parseScope(raw.join(" "));
  if (!scopes.length) return { error: SCOPE_REQUIRED };
  const unknown = unknownScopes(scopes);
  if (unknown.length) return { error: `Unknown scope ${unknown.slice(0, 3).map((s) => JSON.stringify(s.slice(0, 60))).join(", ")}` };
  return { scope: formatScope(scopes) };
}
