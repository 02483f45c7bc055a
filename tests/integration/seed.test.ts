import { beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { apiKeyMatches } from "@/lib/credentials/api-key";
import { ALL_PERMISSIONS } from "@/lib/credentials/permissions";
import { db } from "@/lib/db/client";
import * as demo from "@/lib/startup/seed/demo-data";
import { isDatabaseEmpty, seedDemo } from "@/lib/startup/seed/seed";

async function counts() {
  const p = db();
  return Promise.all([
    p.school.count(), p.user.count(), p.schoolMembership.count(), p.membershipPlan.count(), p.course.count(),
    p.courseLecturer.count(), p.post.count(), p.event.count(), p.digitalDownload.count(), p.category.count(),
    p.lecturer.count(), p.faqEntry.count(), p.apiKey.count(), p.oAuthClient.count(), p.vendorPlatform.count(),
  ]);
}

beforeAll(async () => {
  expect(await isDatabaseEmpty(db())).toBe(true);
  await seedDemo({ prisma: db() });
});

describe("demo seed", () => {
  it("is idempotent", async () => {
    const before = await counts();
    await db().course.update({ where: { id: demo.DEMO_IDS.courses.introToSql }, data: { title: "Edited" } });
    await seedDemo({ prisma: db() });
    expect(await counts()).toEqual(before);
    expect((await db().course.findUniqueOrThrow({ where: { id: demo.DEMO_IDS.courses.introToSql } })).title).toBe("Intro to SQL");
  });

  it("has a member in every built-in role and a custom role", async () => {
    const memberships = await db().schoolMembership.findMany({ where: { schoolId: demo.DEMO_IDS.school } });
    const roles = new Set(memberships.flatMap((m) => m.roles));
    for (const role of ["owner", "manager", "admin", "teacher", "teaching_assistant", "student", "content_reviewer"]) {
      expect(roles.has(role), role).toBe(true);
    }
    const custom = await db().schoolRole.findMany({ where: { schoolId: demo.DEMO_IDS.school } });
    expect(custom.map((r) => r.name).sort()).toEqual([...demo.CUSTOM_ROLES].sort());
  });

  it("has one plan of each plan type", async () => {
    const plans = await db().membershipPlan.findMany({ where: { schoolId: demo.DEMO_IDS.school, status: "published" } });
    expect(new Set(plans.map((p) => p.planType))).toEqual(new Set(["recurring", "fixed_date", "specific_length", "lifetime"]));
  });

  it("has content of every kind, including unpublished items", async () => {
    const schoolId = demo.DEMO_IDS.school;
    expect(await db().course.count({ where: { schoolId, status: "published" } })).toBeGreaterThanOrEqual(3);
    expect(await db().course.count({ where: { schoolId, status: "draft" } })).toBeGreaterThanOrEqual(1);
    for (const n of [
      await db().post.count({ where: { schoolId } }),
      await db().event.count({ where: { schoolId } }),
      await db().digitalDownload.count({ where: { schoolId } }),
      await db().category.count({ where: { schoolId } }),
      await db().lecturer.count({ where: { schoolId } }),
      await db().faqEntry.count({ where: { schoolId } }),
    ]) {
      expect(n).toBeGreaterThanOrEqual(3);
    }
  });

  it("stores the demo API keys hashed, one with every permission and one with none", async () => {
    const full = await db().apiKey.findUniqueOrThrow({ where: { id: demo.DEMO_IDS.apiKeys.full } });
    const none = await db().apiKey.findUniqueOrThrow({ where: { id: demo.DEMO_IDS.apiKeys.none } });
    expect(full.secretHash).not.toContain(demo.DEFAULT_DEMO_API_KEY);
    expect(apiKeyMatches(demo.DEFAULT_DEMO_API_KEY, full.secretHash)).toBe(true);
    // Every permission, including operations added later (docs/decisions.md, "API key permissions").
    expect(full.permissions).toEqual([ALL_PERMISSIONS]);
    expect(none.permissions).toEqual([]);
  });

  it("stores demo passwords hashed", async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: `student@${demo.DEMO_USER_EMAIL_DOMAIN}` } });
    expect(user.passwordHash).not.toContain(demo.DEFAULT_DEMO_PASSWORD);
    expect(await verifyPassword(demo.DEFAULT_DEMO_PASSWORD, user.passwordHash!)).toBe(true);
  });

  it("flags the second school as enterprise training", async () => {
    const acme = await db().school.findUniqueOrThrow({ where: { subdomain: "acme-training" } });
    expect(acme.enterpriseTraining).toBe(true);
    expect((await db().school.findUniqueOrThrow({ where: { subdomain: "demo" } })).enterpriseTraining).toBe(false);
  });

  it("takes overridden secrets and rejects malformed keys", async () => {
    await expect(seedDemo({ prisma: db(), apiKey: "not-a-key" })).rejects.toThrow(/DEMO_API_KEY/);
    const key = "sh_override1_another-demo-key-for-this-test";
    await seedDemo({ prisma: db(), apiKey: key, password: "another-password" });
    const full = await db().apiKey.findUniqueOrThrow({ where: { id: demo.DEMO_IDS.apiKeys.full } });
    expect(full.prefix).toBe("override1");
    expect(apiKeyMatches(key, full.secretHash)).toBe(true);
    const user = await db().user.findUniqueOrThrow({ where: { id: demo.DEMO_IDS.users.owner } });
    expect(await verifyPassword("another-password", user.passwordHash!)).toBe(true);
    await seedDemo({ prisma: db() });
  });
});
