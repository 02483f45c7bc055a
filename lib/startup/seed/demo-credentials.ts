// The demo credentials the README publishes. The embedded demo uses them so the README's curl
// examples work; production on DATABASE_URL refuses them (lib/env.ts, lib/db/demo-secrets-check.ts)
// and seeds random ones instead (randomDemoCredentials).
import { randomBytes } from "node:crypto";
import { generateClientSecret } from "../../oauth/client-secret";

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

export interface DemoCredentials {
  password: string;
  apiKey: string;
  apiKeyNoPermissions: string;
  acmeApiKey: string;
  confidentialClientSecret: string;
}

export const README_DEMO_CREDENTIALS: DemoCredentials = {
  password: DEFAULT_DEMO_PASSWORD,
  apiKey: DEFAULT_DEMO_API_KEY,
  apiKeyNoPermissions: DEFAULT_DEMO_API_KEY_NO_PERMISSIONS,
  acmeApiKey: ACME_API_KEY,
  confidentialClientSecret: DEMO_CONFIDENTIAL_CLIENT_SECRET,
};

const random = (bytes: number) => randomBytes(bytes).toString("base64url");

/** Fresh credentials for a demo seed nobody else knows (printed once by the caller). */
export function randomDemoCredentials(): DemoCredentials {
  // API keys keep the seeded prefixes (they are unique per row) with a random secret part.
  return {
    password: random(18),
    apiKey: `sh_demofull_${random(32)}`,
    apiKeyNoPermissions: `sh_demonone_${random(32)}`,
    acmeApiKey: `sh_acmefull_${random(32)}`,
    confidentialClientSecret: generateClientSecret(),
  };
}
