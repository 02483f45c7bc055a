import { hashPassword } from "../../auth/password";
import { apiKeyHash, parseApiKey } from "../../credentials/api-key";
import { ALL_PERMISSIONS } from "../../credentials/permissions";
import { hashClientSecret } from "../../oauth/client-secret";
import path from "node:path";
import { readContentFolder } from "../../content/read-folder";
import { syncContent } from "../../content/sync-content";
import { README_DEMO_CREDENTIALS, type DemoCredentials } from "./demo-credentials";
import type { PrismaClient } from "../../db/generated/client";
import * as data from "./demo-data";

export interface SeedOptions {
  prisma: PrismaClient;
  /** Defaults to the README's credentials (embedded demo, tests); production passes random ones. */
  credentials?: DemoCredentials;
  password?: string;
  apiKey?: string;
  apiKeyNoPermissions?: string;
}

type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** The demo schools' content folders, read from the app's directory (shipped with every deployment). */
export function demoContentDir(relative: string): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), relative);
}

/**
 * Writes the demo schools. Idempotent: members, keys and clients are upserted by fixed id and the
 * content folders are synced like `npm run school -- import`, so a second run restores the demo to
 * its seeded state and creates nothing new.
 */
export async function seedDemo(options: SeedOptions): Promise<void> {
  const credentials = options.credentials ?? README_DEMO_CREDENTIALS;
  const password = options.password ?? credentials.password;
  const fullKey = options.apiKey ?? credentials.apiKey;
  const noneKey = options.apiKeyNoPermissions ?? credentials.apiKeyNoPermissions;
  for (const [name, key] of [
    ["DEMO_API_KEY", fullKey],
    ["DEMO_API_KEY_NO_PERMISSIONS", noneKey],
  ] as const) {
    if (!parseApiKey(key)) throw new Error(`${name}: must look like sh_<8-32 lower-case letters/digits>_<20+ characters>`);
  }
  // Hashing is slow on purpose and files are read once; both before the transaction holds locks.
  const passwordHash = await hashPassword(password);
  const clientSecretHash = hashClientSecret(credentials.confidentialClientSecret);
  const folders = await Promise.all(data.DEMO_SCHOOLS.map((s) => readContentFolder(demoContentDir(s.contentDir))));

  await options.prisma.$transaction(
    async (tx) => {
      for (const [i, school] of data.DEMO_SCHOOLS.entries()) {
        const name = folders[i]!.school?.data.name ?? school.subdomain;
        await tx.school.upsert({
          where: { id: school.id },
          create: { id: school.id, subdomain: school.subdomain, name },
          update: { subdomain: school.subdomain, disabledAt: null },
        });
      }
      for (const name of data.CUSTOM_ROLES) {
        await tx.schoolRole.upsert({
          where: { schoolId_name: { schoolId: data.DEMO_IDS.school, name } },
          create: { schoolId: data.DEMO_IDS.school, name },
          update: {},
        });
      }
      // Members first: lecturer files name their accounts by email.
      await seedUsers(tx, passwordHash);
      for (const [i, school] of data.DEMO_SCHOOLS.entries()) {
        await syncContent({ tx, schoolId: school.id, folder: folders[i]! });
      }
      await seedApiKeys(tx, fullKey, noneKey, credentials.acmeApiKey);
      await seedOAuth(tx, clientSecretHash);
    },
    { timeout: 60_000 },
  );
}

async function seedUsers(tx: Tx, passwordHash: string) {
  for (const u of data.DEMO_USERS) {
    const schoolId = u.school === "demo" ? data.DEMO_IDS.school : data.DEMO_IDS.acmeSchool;
    const fields = { email: u.email, name: u.name, avatarUrl: u.avatarUrl ?? null, emailVerified: true, passwordHash };
    await tx.user.upsert({
      where: { id: u.id },
      create: { id: u.id, ...fields },
      update: fields,
    });
    await tx.schoolMembership.upsert({
      where: { schoolId_userId: { schoolId, userId: u.id } },
      create: { schoolId, userId: u.id, roles: u.roles },
      update: { roles: u.roles },
    });
  }
  for (const m of data.EXTRA_MEMBERSHIPS) {
    const schoolId = m.school === "demo" ? data.DEMO_IDS.school : data.DEMO_IDS.acmeSchool;
    await tx.schoolMembership.upsert({
      where: { schoolId_userId: { schoolId, userId: m.userId } },
      create: { schoolId, userId: m.userId, roles: m.roles },
      update: { roles: m.roles },
    });
  }
}

async function seedApiKeys(tx: Tx, fullKey: string, noneKey: string, acmeKey: string) {
  const keys = [
    { id: data.DEMO_IDS.apiKeys.full, schoolId: data.DEMO_IDS.school, name: "Demo admin (all permissions)", key: fullKey, permissions: [ALL_PERMISSIONS], enforceLimits: true },
    { id: data.DEMO_IDS.apiKeys.none, schoolId: data.DEMO_IDS.school, name: "Demo admin (no permissions)", key: noneKey, permissions: [], enforceLimits: true },
    { id: data.DEMO_IDS.apiKeys.acmeFull, schoolId: data.DEMO_IDS.acmeSchool, name: "Acme admin (all permissions)", key: acmeKey, permissions: [ALL_PERMISSIONS], enforceLimits: true },
  ];
  for (const { key, ...k } of keys) {
    const fields = { ...k, prefix: parseApiKey(key)!.prefix, secretHash: apiKeyHash(key), revokedAt: null };
    // Another row may hold this prefix after an env override changed keys; free it first.
    await tx.apiKey.deleteMany({ where: { prefix: fields.prefix, id: { not: k.id } } });
    await tx.apiKey.upsert({ where: { id: k.id }, create: fields, update: fields });
  }
}

async function seedOAuth(tx: Tx, clientSecretHash: string) {
  for (const v of data.VENDOR_PLATFORMS) {
    await tx.vendorPlatform.upsert({ where: { id: v.id }, create: v, update: v });
  }
  for (const { confidential, ...c } of data.DEMO_OAUTH_CLIENTS) {
    // A re-seed restores the demo client: one secret, no rotation overlap, not revoked.
    const fields = { ...c, clientSecretHash: confidential ? clientSecretHash : null, previousClientSecretHash: null, previousClientSecretExpiresAt: null, revokedAt: null };
    await tx.oAuthClient.upsert({ where: { id: c.id }, create: fields, update: fields });
  }
}

export async function isDatabaseEmpty(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.school.count()) === 0;
}
