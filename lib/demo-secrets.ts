// The demo credentials the README publishes, at the bottom layer because lib/env.ts refuses them in
// production (and must import nothing above it). The embedded demo seeds them so the README's curl
// examples work (lib/startup/seed/demo-credentials.ts); production on DATABASE_URL seeds random ones.
export const DEFAULT_DEMO_PASSWORD = "schoolhouse-demo";
export const DEFAULT_DEMO_API_KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
export const DEFAULT_DEMO_API_KEY_NO_PERMISSIONS = "sh_demonone_demo-admin-key-no-permissions-dev-only";
export const ACME_API_KEY = "sh_acmefull_acme-admin-key-all-permissions-dev-only";
export const DEMO_CONFIDENTIAL_CLIENT_SECRET = "demo-confidential-secret-dev-only";

export const README_DEMO_SECRETS: readonly string[] = [
  DEFAULT_DEMO_PASSWORD,
  DEFAULT_DEMO_API_KEY,
  DEFAULT_DEMO_API_KEY_NO_PERMISSIONS,
  ACME_API_KEY,
  DEMO_CONFIDENTIAL_CLIENT_SECRET,
];
