import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db, dbHandle } from "@/lib/db/client";
import { withSqlSession } from "@/lib/db/driver";
import { Prisma } from "@/lib/db/generated/client";
import { migrate, readMigrations } from "@/lib/db/migrator";
import { createTestDb } from "../helpers/test-db";

describe("migrator", () => {
  it("records migrations the way prisma migrate deploy does", async () => {
    const rows = await withSqlSession(dbHandle().driver, (s) =>
      s.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; rolled_back_at: Date | null }>(
        `SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM "_prisma_migrations" ORDER BY migration_name`,
      ),
    );
    const files = await readMigrations();
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const row of rows) {
      const bytes = readFileSync(path.join("prisma/migrations", row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it("is a no-op when run again", async () => {
    expect(await migrate({ driver: dbHandle().driver })).toEqual({ applied: [], modified: [] });
  });

  it("reports a migration whose file changed after it was applied", async () => {
    const [first, ...rest] = await readMigrations();
    const result = await migrate({ driver: dbHandle().driver, migrations: [{ ...first!, checksum: "0".repeat(64) }, ...rest] });
    expect(result.modified).toEqual([first!.name]);
  });

  it("rolls a failing migration back completely and names it", async () => {
    const existing = await readMigrations();
    const bad = { name: "99999999999999_broken", checksum: "x".repeat(64), sql: `CREATE TABLE "half_done" (id int);\nSELECT * FROM "no_such_table";` };
    await expect(migrate({ driver: dbHandle().driver, migrations: [...existing, bad] })).rejects.toThrow(
      /migration 99999999999999_broken failed: .*no_such_table/,
    );
    const leftovers = await withSqlSession(dbHandle().driver, (s) =>
      s.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1 UNION ALL SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`, [bad.name]),
    );
    expect(leftovers).toEqual([]);
  });

  it("applies every migration to an empty database in order", async () => {
    const fresh = await createTestDb(undefined, { fresh: true });
    try {
      const tables = await withSqlSession(fresh.handle.driver, (s) =>
        s.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`),
      );
      const names = new Set(tables.map((t) => t.tablename));
      for (const model of Object.values(Prisma.ModelName)) expect(names.has(model), model).toBe(true);
    } finally {
      await fresh.dispose();
    }
    // A fresh embedded database (no template) boots PGlite and runs all ten migrations: tens of
    // seconds on a loaded 2-core machine.
  }, 120_000);
});

describe("schema.prisma and the migrations agree", () => {
  // Creates one row of every model through the generated client, reads it back and deletes it,
  // so a model or column missing from the SQL fails here.
  it("creates, reads and deletes every model", async () => {
    const p = db();
    const school = await p.school.create({
      data: {
        subdomain: "mig-test", name: "Migration School", customDomain: "learn.mig.test", brandColor: "#112233", contactEmail: "hi@mig.test", disabledAt: new Date(),
        logoUrl: "/media/x/logo.svg", faviconUrl: "/media/x/favicon.svg",
      },
    });
    const user = await p.user.create({ data: { email: "mig@test.dev", name: "Mig", passwordHash: "x", avatarUrl: "https://a/b.png" } });
    const role = await p.schoolRole.create({ data: { schoolId: school.id, name: "mentor" } });
    const membership = await p.schoolMembership.create({ data: { schoolId: school.id, userId: user.id, roles: ["student", "mentor"] } });
    const plan = await p.membershipPlan.create({
      data: { schoolId: school.id, slug: "m", name: "Monthly", planType: "recurring", interval: "month", intervalCount: 1, price: "9.99", currency: "EUR" },
    });
    const now = new Date();
    const sub = await p.subscription.create({
      data: { schoolId: school.id, userId: user.id, planId: plan.id, state: "active", startAt: now, currentPeriodStart: now, currentPeriodEnd: new Date(now.getTime() + 1000) },
    });
    const payment = await p.payment.create({ data: { schoolId: school.id, subscriptionId: sub.id, amount: "9.99", currency: "EUR", state: "succeeded", paidAt: now } });
    const schoolBilling = await p.schoolBilling.create({ data: { schoolId: school.id, testClockAt: now } });
    const testProviderCharge = await p.testProviderCharge.create({
      data: { id: "ch_test_mig", idempotencyKey: "mig-key", paymentMethodId: "pm_card_visa", amount: "9.99", currency: "EUR", status: "succeeded" },
    });
    const paymentRefund = await p.paymentRefund.create({ data: { schoolId: school.id, paymentId: payment.id, amount: "1.00", state: "succeeded", idempotencyKey: "mig-refund" } });
    const stripeEvent = await p.stripeEvent.create({ data: { schoolId: school.id, eventId: "evt_mig", type: "payment_intent.succeeded" } });
    const testProviderRefund = await p.testProviderRefund.create({ data: { id: "re_test_mig", idempotencyKey: "mig-refund", chargeId: "ch_test_mig", amount: "1.00", currency: "EUR" } });
    const testProviderCheckout = await p.testProviderCheckout.create({
      data: { id: "cs_test_mig", checkoutId: "c", amount: "9.99", currency: "EUR", description: "Monthly", successUrl: "http://a/s", cancelUrl: "http://a/c", expiresAt: now },
    });
    const checkoutSession = await p.checkoutSession.create({
      data: { schoolId: school.id, planId: plan.id, amount: "9.99", currency: "EUR", trialDays: 7, email: user.email, provider: "test", browserTokenHash: "h", expiresAt: now },
    });
    const category = await p.category.create({ data: { schoolId: school.id, slug: "c", name: "Cat" } });
    const lecturer = await p.lecturer.create({ data: { schoolId: school.id, slug: "l", name: "Lec", userId: user.id } });
    const course = await p.course.create({ data: { schoolId: school.id, slug: "co", title: "Course", categoryId: category.id, price: "10.00", currency: "USD" } });
    const courseLecturer = await p.courseLecturer.create({ data: { courseId: course.id, lecturerId: lecturer.id } });
    const enrollment = await p.enrollment.create({ data: { schoolId: school.id, courseId: course.id, userId: user.id } });
    const post = await p.post.create({ data: { schoolId: school.id, slug: "p", title: "Post", imageUrl: "/media/x/p.png", authorId: lecturer.id, categoryId: category.id } });
    const event = await p.event.create({ data: { schoolId: school.id, slug: "e", title: "Event", imageUrl: "https://img.test/e.png", startsAt: now, endsAt: now, timezone: "Europe/Berlin" } });
    const download = await p.digitalDownload.create({ data: { schoolId: school.id, slug: "d", title: "DL", price: "1.00", currency: "USD" } });
    const downloadAccess = await p.downloadAccess.create({ data: { schoolId: school.id, downloadId: download.id, userId: user.id } });
    // A one-time purchase (a course bought at checkout): a payment without a subscription, and the
    // CHECK constraints around it: a subscription or one_time with a buyer and exactly one item;
    // a checkout of exactly one item.
    const oneTime = await p.payment.create({ data: { schoolId: school.id, userId: user.id, courseId: course.id, description: "Course", amount: "10.00", currency: "USD", state: "succeeded", billingReason: "one_time" } });
    expect(oneTime.subscriptionId).toBeNull();
    await expect(p.payment.create({ data: { schoolId: school.id, amount: "1.00", currency: "USD" } })).rejects.toThrow();
    await expect(p.payment.create({ data: { schoolId: school.id, userId: user.id, amount: "1.00", currency: "USD", billingReason: "one_time" } })).rejects.toThrow();
    await expect(p.payment.create({ data: { schoolId: school.id, subscriptionId: sub.id, userId: user.id, courseId: course.id, amount: "1.00", currency: "USD", billingReason: "one_time" } })).rejects.toThrow();
    const courseCheckout = await p.checkoutSession.create({
      data: { schoolId: school.id, courseId: course.id, paymentId: oneTime.id, amount: "10.00", currency: "USD", email: user.email, provider: "test", browserTokenHash: "h", expiresAt: now },
    });
    expect(courseCheckout.planId).toBeNull();
    await expect(p.checkoutSession.create({ data: { schoolId: school.id, planId: plan.id, downloadId: download.id, amount: "1.00", currency: "USD", email: user.email, provider: "test", browserTokenHash: "h", expiresAt: now } })).rejects.toThrow();
    await expect(p.checkoutSession.create({ data: { schoolId: school.id, amount: "1.00", currency: "USD", email: user.email, provider: "test", browserTokenHash: "h", expiresAt: now } })).rejects.toThrow();
    const faq = await p.faqEntry.create({ data: { schoolId: school.id, question: "Q?", answer: "A." } });
    const home = await p.homePage.create({ data: { schoolId: school.id, title: "Home" } });
    const contentImage = await p.contentImage.create({ data: { schoolId: school.id, sha256: "a".repeat(64), name: "x.png", contentType: "image/png", bytes: Buffer.from([1, 2]) } });
    const contentFile = await p.contentFile.create({ data: { schoolId: school.id, sha256: "b".repeat(64), name: "x.pdf", contentType: "application/pdf", bytes: Buffer.from("%PDF-") } });
    const fileDownload = await p.digitalDownload.create({ data: { schoolId: school.id, slug: "d2", title: "DL2", price: "1.00", currency: "USD", fileSha256: contentFile.sha256 } });
    expect(fileDownload.fileSha256).toBe("b".repeat(64));
    const apiKey = await p.apiKey.create({ data: { schoolId: school.id, name: "k", prefix: "migtest01", secretHash: "h", permissions: ["courses"] } });
    const idem = await p.idempotencyKey.create({
      data: { schoolId: school.id, apiKeyId: apiKey.id, key: "k1", requestHash: "r", responseStatus: 200, responseBody: "{}", expiresAt: now },
    });
    const vendor = await p.vendorPlatform.create({ data: { name: "MigVendor", scope: "openid" } });
    const client = await p.oAuthClient.create({ data: { clientId: "mig-client", name: "Mig", scope: "openid", vendorPlatformId: vendor.id, schoolId: school.id } });
    const grant = await p.oAuthGrant.create({ data: { clientId: client.clientId, userId: user.id, schoolId: school.id, scope: "openid", issuer: "http://demo.localhost" } });
    const code = await p.oAuthAuthorizationCode.create({
      data: { codeHash: "c", grantId: grant.id, clientId: client.clientId, redirectUri: "http://127.0.0.1/cb", scope: "openid", codeChallenge: "x", codeChallengeMethod: "S256", expiresAt: now },
    });
    const access = await p.oAuthAccessToken.create({ data: { tokenHash: "a", grantId: grant.id, clientId: client.clientId, scope: "openid", expiresAt: now } });
    const refresh = await p.oAuthRefreshToken.create({ data: { tokenHash: "r", grantId: grant.id, clientId: client.clientId, scope: "openid" } });
    const setupToken = await p.passwordSetupToken.create({ data: { userId: user.id, tokenHash: "t", expiresAt: now } });
    const verificationToken = await p.emailVerificationToken.create({ data: { userId: user.id, email: user.email, tokenHash: "v", expiresAt: now } });
    const mail = await p.mailMessage.create({
      data: { id: "00000000-0000-4000-8000-000000000027", schoolId: school.id, userId: user.id, kind: "welcome", to: user.email, nextAttemptAt: now, createdAt: now },
    });
    const consent = await p.oAuthConsent.create({ data: { userId: user.id, clientId: client.clientId, schoolId: school.id, scope: "openid" } });
    const memberSession = await p.memberSession.create({ data: { userId: user.id, origin: "http://demo.localhost", expiresAt: now } });
    const secretReveal = await p.consoleSecretReveal.create({ data: { sessionId: memberSession.id, formToken: "00000000-0000-4000-8000-000000000028", sealed: "v1.x", expiresAt: now } });
    const loginThrottle = await p.loginThrottle.create({ data: { key: "account:mig@test.dev", failures: 1, lastFailureAt: now } });
    const endpoint = await p.webhookEndpoint.create({
      data: { schoolId: school.id, url: "https://hooks.mig.test/in", events: ["*"], secretCiphertext: "c", createdAt: now, updatedAt: now },
    });
    const webhookEvent = await p.webhookEvent.create({
      data: { id: "00000000-0000-4000-8000-000000000014", schoolId: school.id, type: "member.created", subjectId: user.id, payload: "{}", createdAt: now },
    });
    const delivery = await p.webhookDelivery.create({
      data: { schoolId: school.id, eventId: webhookEvent.id, endpointId: endpoint.id, nextAttemptAt: now, createdAt: now, updatedAt: now },
    });
    const assertion = await p.oAuthClientAssertion.create({ data: { clientId: client.clientId, jti: "j1", expiresAt: now } });
    const backchannel = await p.backchannelLogout.create({
      data: { schoolId: school.id, clientId: client.clientId, uri: "https://rp.mig.test/logout", issuer: "http://demo.localhost", sub: user.id, nextAttemptAt: now, createdAt: now },
    });
    const attempt = await p.webhookAttempt.create({ data: { deliveryId: delivery.id, attemptedAt: now, durationMs: 5, statusCode: 204, succeeded: true } });
    const signingKey = await p.oidcSigningKey.create({
      data: { kid: "mig-kid", alg: "ES256", publicJwk: { kty: "EC" }, privateKeyCiphertext: "c", createdAt: now, activatesAt: now },
    });
    const auditEvent = await p.auditEvent.create({
      data: { id: "00000000-0000-4000-8000-000000000028", schoolId: school.id, actorType: "cli", actorLabel: "mig", action: "member.create", targetType: "member", targetId: user.id, summary: {}, createdAt: now },
    });
    // The migration creates the one row; triggers keep it up to date (content-version.test.ts).
    const contentVersion = await p.contentVersion.findUniqueOrThrow({ where: { id: 1 } });
    // The same for the credential version (api-key-cache.test.ts).
    const credentialVersion = await p.credentialVersion.findUniqueOrThrow({ where: { id: 1 } });

    const created: Record<Prisma.ModelName, unknown> = {
      School: school, User: user, SchoolRole: role, SchoolMembership: membership, MembershipPlan: plan, Subscription: sub,
      Payment: payment, Category: category, Lecturer: lecturer, Course: course, CourseLecturer: courseLecturer,
      Enrollment: enrollment, Post: post, Event: event, DigitalDownload: download, FaqEntry: faq, HomePage: home, ContentImage: contentImage, ContentFile: contentFile,
      ApiKey: apiKey, IdempotencyKey: idem, VendorPlatform: vendor, OAuthClient: client, OAuthGrant: grant,
      OAuthAuthorizationCode: code, OAuthAccessToken: access, OAuthRefreshToken: refresh, OAuthConsent: consent,
      ContentVersion: contentVersion, CredentialVersion: credentialVersion, PasswordSetupToken: setupToken, MemberSession: memberSession, LoginThrottle: loginThrottle,
      WebhookEndpoint: endpoint, WebhookEvent: webhookEvent, WebhookDelivery: delivery, WebhookAttempt: attempt,
      OAuthClientAssertion: assertion, BackchannelLogout: backchannel,
      OidcSigningKey: signingKey, SchoolBilling: schoolBilling, TestProviderCharge: testProviderCharge,
      PaymentRefund: paymentRefund, TestProviderRefund: testProviderRefund, StripeEvent: stripeEvent,
      EmailVerificationToken: verificationToken, MailMessage: mail, AuditEvent: auditEvent, ConsoleSecretReveal: secretReveal,
      TestProviderCheckout: testProviderCheckout, CheckoutSession: checkoutSession, DownloadAccess: downloadAccess,
    };
    expect(Object.keys(created).sort()).toEqual(Object.values(Prisma.ModelName).sort());

    const read = await p.school.findUniqueOrThrow({
      where: { id: school.id },
      include: { memberships: true, plans: { include: { subscriptions: { include: { payments: true } } } }, courses: { include: { lecturers: true, enrollments: true } }, homePage: true },
    });
    expect(read.memberships[0]!.roles).toEqual(["student", "mentor"]);
    expect(read.plans[0]!.price.toString()).toBe("9.99");
    expect(read.plans[0]!.subscriptions[0]!.payments[0]!.id).toBe(payment.id);
    expect(read.courses[0]!.lecturers[0]!.lecturerId).toBe(lecturer.id);

    // Deleting the school cascades to everything it owns; the rest goes explicitly.
    await p.subscription.delete({ where: { id: sub.id } });
    await p.school.delete({ where: { id: school.id } });
    expect(await p.oAuthClient.count()).toBe(0);
    expect(await p.webhookAttempt.count()).toBe(0);
    expect(await p.backchannelLogout.count()).toBe(0);
    expect(await p.mailMessage.count()).toBe(0);
    // The audit log is append-only, but a deleted school takes its rows (the trigger admits the cascade).
    expect(await p.auditEvent.count()).toBe(0);
    await p.oAuthClientAssertion.deleteMany({});
    await p.vendorPlatform.delete({ where: { id: vendor.id } });
    await p.user.delete({ where: { id: user.id } });
    expect(await p.memberSession.count()).toBe(0);
    expect(await p.consoleSecretReveal.count()).toBe(0);
    await p.loginThrottle.delete({ where: { key: loginThrottle.key } });
    await p.oidcSigningKey.delete({ where: { id: signingKey.id } });
    expect(await p.schoolBilling.count()).toBe(0);
    expect(await p.stripeEvent.count()).toBe(0);
    await p.testProviderCharge.delete({ where: { id: testProviderCharge.id } });
    expect(await p.paymentRefund.count()).toBe(0);
    await p.testProviderRefund.delete({ where: { id: testProviderRefund.id } });
    expect(await p.checkoutSession.count()).toBe(0);
    expect(await p.downloadAccess.count()).toBe(0);
    expect(await p.payment.count({ where: { id: oneTime.id } })).toBe(0);
    await p.testProviderCheckout.delete({ where: { id: testProviderCheckout.id } });
    const counts = await Promise.all([p.school.count(), p.user.count(), p.course.count(), p.oAuthGrant.count(), p.apiKey.count()]);
    expect(counts).toEqual([0, 0, 0, 0, 0]);
  });
});
