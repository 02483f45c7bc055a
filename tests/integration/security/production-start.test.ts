// Production start-up on an external database: nothing is seeded unless asked; asked, the demo
// gets random credentials shown once; a database that accepts the README's credentials is refused.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { apiKeyMatches } from "@/lib/credentials/api-key";
import { bootstrap, StartupError } from "@/lib/startup/bootstrap";
import { db } from "@/lib/db/client";
import { DEMO_IDS, DEMO_USERS } from "@/lib/startup/seed/demo-data";
import { README_DEMO_CREDENTIALS, randomDemoCredentials } from "@/lib/startup/seed/demo-credentials";
import { seedDemo } from "@/lib/startup/seed/seed";
import { resetEnvCache } from "@/lib/env";
import { hashClientSecret, verifyClientSecret } from "@/lib/oauth/client-secret";
import { MAIL_KINDS } from "@/lib/mail/enqueue";

const saved = { ...process.env };
function productionEnv(extra: Record<string, string> = {}) {
  // The test's own database stays installed as db(); DATABASE_URL only makes this a production start on Postgres.
  // MAIL_URL: start-up never connects to it (MAIL_URL "" means unset, as in a .env file).
  const env = { NODE_ENV: "production", DATABASE_URL: "postgresql://prod@db.internal/school", AUTH_SECRET: "p".repeat(40), MAIL_URL: "smtp://mail.internal:587", ...extra };
  Object.assign(process.env, env);
  resetEnvCache();
}
beforeEach(() => resetEnvCache());
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  resetEnvCache();
});

// Seeding hashes passwords on purpose slowly: generous on a busy machine.
describe("production start on DATABASE_URL", { timeout: 120_000 }, () => {
  it("seeds nothing unless SEED_ON_START asks", async () => {
    productionEnv();
    const lines: string[] = [];
    await bootstrap({ log: (l) => lines.push(l) });
    expect(await db().school.count()).toBe(0);
    expect(lines.join("\n")).not.toMatch(/seeded/);
  });

  it("with SEED_ON_START=1 seeds random credentials, printed once, none of the README's", async () => {
    productionEnv({ SEED_ON_START: "1" });
    const lines: string[] = [];
    await bootstrap({ log: (l) => lines.push(l) });
    expect(await db().school.count()).toBe(2);
    const shown = lines.find((l) => l.startsWith("demo credentials"))!;
    const value = (name: string) => new RegExp(`${name}=(\\S+)`).exec(shown)![1]!;

    const full = await db().apiKey.findUniqueOrThrow({ where: { id: DEMO_IDS.apiKeys.full } });
    expect(apiKeyMatches(value("api_key"), full.secretHash)).toBe(true);
    expect(apiKeyMatches(README_DEMO_CREDENTIALS.apiKey, full.secretHash)).toBe(false);
    const owner = await db().user.findUniqueOrThrow({ where: { email: DEMO_USERS[0]!.email } });
    expect(await verifyPassword(value("password"), owner.passwordHash!)).toBe(true);
    expect(await verifyPassword(README_DEMO_CREDENTIALS.password, owner.passwordHash!)).toBe(false);
    const client = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: "demo-confidential-app" } });
    expect(verifyClientSecret(value("demo-confidential-app_secret"), client.clientSecretHash)).toBe(true);
    expect(verifyClientSecret(README_DEMO_CREDENTIALS.confidentialClientSecret, client.clientSecretHash)).toBe(false);

    // Shown once: a restart prints no credentials.
    const again: string[] = [];
    await bootstrap({ log: (l) => again.push(l) });
    expect(again.join("\n")).not.toMatch(/credentials/);
  });

  it("refuses to serve a database that accepts the README's demo credentials", async () => {
    await seedDemo({ prisma: db() });
    productionEnv();
    const err = await bootstrap({ log: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toMatch(/README's demo credentials/);
    expect((err as Error).message).toContain(README_DEMO_CREDENTIALS.apiKey);
  });

  it("refuses a demo client that still accepts the README secret as the previous one of a rotation", async () => {
    await seedDemo({ prisma: db(), credentials: randomDemoCredentials() });
    productionEnv();
    const until = new Date(Date.now() + 60 * 60 * 1000);
    const where = { clientId: "demo-confidential-app" };
    await db().oAuthClient.update({ where, data: { previousClientSecretHash: hashClientSecret(README_DEMO_CREDENTIALS.confidentialClientSecret), previousClientSecretExpiresAt: until } });
    const err = await bootstrap({ log: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toMatch(/demo-confidential-app client secret/);
    // Once the overlap is over the README secret is refused by the token endpoint, and start-up goes on.
    await db().oAuthClient.update({ where, data: { previousClientSecretExpiresAt: new Date(Date.now() - 1000) } });
    await expect(bootstrap({ log: () => {} })).resolves.toBeUndefined();
  });

  it("refuses to serve without MAIL_URL while a school sends mail; starts once every kind is off", async () => {
    await seedDemo({ prisma: db(), credentials: randomDemoCredentials() });
    productionEnv({ MAIL_URL: "" });
    const err = await bootstrap({ log: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toMatch(/without MAIL_URL: schools acme-training, demo send mail/);
    // One kind still on is enough to refuse.
    await db().school.updateMany({ data: { mailDisabled: ["welcome", "verify-email"] } });
    await expect(bootstrap({ log: () => {} })).rejects.toThrow(/without MAIL_URL/);
    await db().school.updateMany({ data: { mailDisabled: [...MAIL_KINDS] } });
    await expect(bootstrap({ log: () => {} })).resolves.toBeUndefined();
    // With MAIL_URL every setting starts.
    await db().school.updateMany({ data: { mailDisabled: [] } });
    productionEnv();
    await expect(bootstrap({ log: () => {} })).resolves.toBeUndefined();
  });
});
