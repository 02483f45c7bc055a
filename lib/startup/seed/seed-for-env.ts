import type { Env } from "../../env";
import type { PrismaClient } from "../../db/generated/client";
import { randomDemoCredentials } from "./demo-credentials";
import { seedDemo } from "./seed";

/**
 * Seeds the demo schools as the environment asks: the README's credentials on the embedded
 * database and in tests; in production on DATABASE_URL random ones, logged once (stored hashed).
 */
export async function seedDemoForEnv(options: { prisma: PrismaClient; env: Env; log: (line: string) => void }): Promise<void> {
  const e = options.env;
  const credentials = e.NODE_ENV === "production" && e.DATABASE_URL ? randomDemoCredentials() : undefined;
  await seedDemo({
    prisma: options.prisma,
    credentials,
    password: e.DEMO_PASSWORD,
    apiKey: e.DEMO_API_KEY,
    apiKeyNoPermissions: e.DEMO_API_KEY_NO_PERMISSIONS,
  });
  if (credentials) {
    options.log(
      "demo credentials (shown once, stored hashed): " +
        `password=${e.DEMO_PASSWORD ?? credentials.password} api_key=${e.DEMO_API_KEY ?? credentials.apiKey} ` +
        `api_key_no_permissions=${e.DEMO_API_KEY_NO_PERMISSIONS ?? credentials.apiKeyNoPermissions} ` +
        `acme_api_key=${credentials.acmeApiKey} demo-confidential-app_secret=${credentials.confidentialClientSecret}`,
    );
  }
}
