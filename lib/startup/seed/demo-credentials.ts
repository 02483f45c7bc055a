// The demo credentials the README publishes (values in lib/demo-secrets.ts). The embedded demo uses
// them so the README's curl examples work; production on DATABASE_URL refuses them (lib/env.ts,
// ./demo-secrets-check.ts) and seeds random ones instead (randomDemoCredentials).
import { randomBytes } from "node:crypto";
import { generateClientSecret } from "../../oauth/client-secret";
import {
  ACME_API_KEY,
  DEFAULT_DEMO_API_KEY,
  DEFAULT_DEMO_API_KEY_NO_PERMISSIONS,
  DEFAULT_DEMO_PASSWORD,
  DEMO_CONFIDENTIAL_CLIENT_SECRET,
} from "../../demo-secrets";

export {
  ACME_API_KEY,
  DEFAULT_DEMO_API_KEY,
  DEFAULT_DEMO_API_KEY_NO_PERMISSIONS,
  DEFAULT_DEMO_PASSWORD,
  DEMO_CONFIDENTIAL_CLIENT_SECRET,
  README_DEMO_SECRETS,
} from "../../demo-secrets";

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
