// The authenticated caller of the Admin API. Rate limits are tracked per credential id;
// the spec names four credential kinds that all share the concurrency and runtime budgets.
export type CredentialKind = "api_key" | "oauth_app" | "vendor_app" | "installed_app";

export interface Credential {
  kind: CredentialKind;
  /** Stable id: rate-limit counters are keyed by `${kind}:${id}`. */
  id: string;
  schoolId: string;
  /** Operation names this credential may run. */
  permissions: readonly string[];
  /** When false, budgets are counted and reported but not enforced. */
  enforceLimits: boolean;
}

export const credentialKey = (c: Pick<Credential, "kind" | "id">) => `${c.kind}:${c.id}`;
