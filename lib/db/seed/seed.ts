import { hashPassword } from "../../auth/password";
import { apiKeyHash, parseApiKey } from "../../credentials/api-key";
import { ADMIN_OPERATIONS } from "../../credentials/permissions";
import { hashSecret } from "../../credentials/secret";
import { README_DEMO_CREDENTIALS, type DemoCredentials } from "./demo-credentials";
import type { PrismaClient } from "../generated/client";
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

const date = (s: string | null) => (s ? new Date(s) : null);

/**
 * Writes the demo schools. Idempotent: rows are upserted by fixed id, so a second run
 * restores demo content to its seeded state and creates nothing new.
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
  // Hashing is slow on purpose; do it before the transaction holds locks.
  const passwordHash = await hashPassword(password);
  const clientSecretHash = hashSecret(credentials.confidentialClientSecret);

  await options.prisma.$transaction(
    async (tx) => {
      await seedSchool(tx, data.DEMO_SCHOOL, data.DEMO_HOME);
      await seedSchool(tx, data.ACME_SCHOOL, data.ACME_HOME);
      for (const name of data.CUSTOM_ROLES) {
        await tx.schoolRole.upsert({
          where: { schoolId_name: { schoolId: data.DEMO_IDS.school, name } },
          create: { schoolId: data.DEMO_IDS.school, name },
          update: {},
        });
      }
      await seedUsers(tx, passwordHash);
      await seedContent(tx);
      await seedPlans(tx, data.DEMO_IDS.school, data.PLANS);
      await seedPlans(tx, data.DEMO_IDS.acmeSchool, data.ACME_PLANS);
      await seedApiKeys(tx, fullKey, noneKey, credentials.acmeApiKey);
      await seedOAuth(tx, clientSecretHash);
    },
    { timeout: 60_000 },
  );
}

async function seedSchool(
  tx: Tx,
  school: { id: string; subdomain: string; name: string; description: string; enterpriseTraining: boolean },
  home: { title: string; tagline: string; body: string },
) {
  await tx.school.upsert({ where: { id: school.id }, create: school, update: school });
  await tx.homePage.upsert({
    where: { schoolId: school.id },
    create: { schoolId: school.id, ...home },
    update: home,
  });
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

async function seedContent(tx: Tx) {
  const schoolId = data.DEMO_IDS.school;
  for (const c of data.CATEGORIES) {
    await tx.category.upsert({ where: { id: c.id }, create: { ...c, schoolId }, update: c });
  }
  for (const l of data.LECTURERS) {
    await tx.lecturer.upsert({ where: { id: l.id }, create: { ...l, schoolId }, update: l });
  }
  await seedCourses(tx, schoolId, data.COURSES);
  await seedCourses(tx, data.DEMO_IDS.acmeSchool, data.ACME_COURSES);
  for (const p of data.POSTS) {
    const fields = { ...p, publishedAt: date(p.publishedAt) };
    await tx.post.upsert({ where: { id: p.id }, create: { ...fields, schoolId }, update: fields });
  }
  for (const e of data.EVENTS) {
    const fields = { ...e, startsAt: new Date(e.startsAt), endsAt: new Date(e.endsAt) };
    await tx.event.upsert({ where: { id: e.id }, create: { ...fields, schoolId }, update: fields });
  }
  for (const d of data.DOWNLOADS) {
    await tx.digitalDownload.upsert({ where: { id: d.id }, create: { ...d, schoolId }, update: d });
  }
  for (const f of data.FAQ) {
    await tx.faqEntry.upsert({ where: { id: f.id }, create: { ...f, schoolId }, update: f });
  }
}

async function seedCourses(tx: Tx, schoolId: string, courses: data.SeedCourse[]) {
  for (const { lecturerIds, ...c } of courses) {
    const fields = { ...c, publishedAt: date(c.publishedAt) };
    await tx.course.upsert({ where: { id: c.id }, create: { ...fields, schoolId }, update: fields });
    await tx.courseLecturer.deleteMany({ where: { courseId: c.id } });
    await tx.courseLecturer.createMany({
      data: lecturerIds.map((lecturerId, position) => ({ courseId: c.id, lecturerId, position })),
    });
  }
}

async function seedPlans(tx: Tx, schoolId: string, plans: data.SeedPlan[]) {
  for (const p of plans) {
    const fields = { ...p, fixedEndAt: date(p.fixedEndAt) };
    await tx.membershipPlan.upsert({ where: { id: p.id }, create: { ...fields, schoolId }, update: fields });
  }
}

async function seedApiKeys(tx: Tx, fullKey: string, noneKey: string, acmeKey: string) {
  const keys = [
    { id: data.DEMO_IDS.apiKeys.full, schoolId: data.DEMO_IDS.school, name: "Demo admin (all permissions)", key: fullKey, permissions: [...ADMIN_OPERATIONS], enforceLimits: true },
    { id: data.DEMO_IDS.apiKeys.none, schoolId: data.DEMO_IDS.school, name: "Demo admin (no permissions)", key: noneKey, permissions: [], enforceLimits: true },
    { id: data.DEMO_IDS.apiKeys.acmeFull, schoolId: data.DEMO_IDS.acmeSchool, name: "Acme admin (all permissions)", key: acmeKey, permissions: [...ADMIN_OPERATIONS], enforceLimits: true },
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
    const fields = { ...c, clientSecretHash: confidential ? clientSecretHash : null };
    await tx.oAuthClient.upsert({ where: { id: c.id }, create: fields, update: fields });
  }
}

export async function isDatabaseEmpty(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.school.count()) === 0;
}
