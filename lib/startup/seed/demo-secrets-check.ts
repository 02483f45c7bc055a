import { verifyPassword } from "../../auth/password";
import { apiKeyHash, parseApiKey } from "../../credentials/api-key";
import { safeEqual } from "../../credentials/secret";
import { now } from "../../clock";
import { matchClientSecret } from "../../oauth/client-secret";
import type { PrismaClient } from "../../db/generated/client";
import { README_DEMO_CREDENTIALS } from "./demo-credentials";
import { DEMO_USERS } from "./demo-data";

/**
 * Which of the README's published credentials this database would accept: live demo API keys,
 * the demo confidential client's secret, demo accounts with the demo password. Production start-up
 * refuses to serve while any is found.
 */
export async function findReadmeDemoSecrets(prisma: PrismaClient): Promise<string[]> {
  const found: string[] = [];
  const c = README_DEMO_CREDENTIALS;
  for (const key of [c.apiKey, c.apiKeyNoPermissions, c.acmeApiKey]) {
    const prefix = parseApiKey(key)!.prefix;
    const row = await prisma.apiKey.findUnique({ where: { prefix } });
    if (row && !row.revokedAt && safeEqual(row.secretHash, apiKeyHash(key))) found.push(`API key ${key}`);
  }
  const client = await prisma.oAuthClient.findUnique({ where: { clientId: "demo-confidential-app" } });
  // The current secret, or a previous one still inside its rotation overlap.
  if (client && !client.revokedAt && matchClientSecret(c.confidentialClientSecret, client, now())) {
    found.push("the demo-confidential-app client secret");
  }
  const users = await prisma.user.findMany({ where: { email: { in: DEMO_USERS.map((u) => u.email) } }, select: { email: true, passwordHash: true } });
  for (const u of users) {
    if (u.passwordHash && (await verifyPassword(c.password, u.passwordHash))) {
      found.push(`the demo password of ${u.email}`);
      break;
    }
  }
  return found;
}
