// Scopes the server knows, with the plain words the consent page shows.
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: "Confirm who you are (your member ID)",
  profile: "See your name and profile picture",
  email: "See your email address",
  offline_access: "Stay connected when you are not using it (refresh tokens)",
  "courses:read": "See the school's courses and your enrollments",
  "students:read": "See the school's students",
  "subscriptions:read": "See your memberships; if you are staff, also the school's subscriptions and who holds them",
  "subscriptions:write": "If you are staff: create, change and cancel members' subscriptions",
  "enrollments:write": "If you are staff: enroll people in the school's courses",
  "webhooks:manage":
    "If you are staff: see, add, change and delete the school's webhook endpoints (the addresses that are told about membership changes) and their signing secrets, and resend past notifications",
};

export const SUPPORTED_SCOPES = Object.keys(SCOPE_DESCRIPTIONS);

/** Space-separated scope string to a de-duplicated list, in the order given. */
export function parseScope(scope: string | null | undefined): string[] {
  if (!scope) return [];
  return [...new Set(scope.split(" ").filter(Boolean))];
}

/** Canonical form for storage and comparison: sorted, space-separated. */
export function formatScope(scopes: Iterable<string>): string {
  return [...new Set(scopes)].sort().join(" ");
}

export function unknownScopes(requested: string[]): string[] {
  return requested.filter((s) => !Object.hasOwn(SCOPE_DESCRIPTIONS, s));
}

/**
 * Scopes granted to a client: those requested that the client may have. offline_access is always
 * accepted (refresh tokens are part of every token response), never a reason to refuse.
 */
export function grantableScopes(requested: string[], clientScope: string): string[] {
  const allowed = new Set([...parseScope(clientScope), "offline_access"]);
  return requested.filter((s) => allowed.has(s));
}
