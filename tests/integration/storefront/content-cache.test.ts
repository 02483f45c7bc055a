// The storefront's content cache through HTTP, on the database the run uses (PGlite, and Postgres in
// integration-pg): the content version triggers, exact invalidation, and expiry without a write.
import { afterEach, describe, expect, it, vi } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { resetEnvCache } from "@/lib/env";
import { appForSuite } from "../../helpers/app-for-suite";
import { DEMO_HOST } from "./helpers";


const server = appForSuite({ host: DEMO_HOST });
afterEach(() => setNow(null));

const version = async () => (await db().contentVersion.findUniqueOrThrow({ where: { id: 1 } })).version;
const text = async (path: string) => (await server.fetch(path)).text();
const sql = (statement: string) => db().$executeRawUnsafe(statement);

const CONTENT_TABLES = [
  "School",
  "HomePage",
  "MembershipPlan",
  "Category",
  "Lecturer",
  "Course",
  "CourseLecturer",
  "Post",
  "Event",
  "DigitalDownload",
  "FaqEntry",
];

describe("ContentVersion", () => {
  it.each(CONTENT_TABLES)("any statement on %s bumps it, in the writing transaction", async (table) => {
    const before = await version();
    await sql(`DELETE FROM "${table}" WHERE false`);
    expect(await version()).toBe(before + 1n);
    // Rolled back with the write: a page built meanwhile is not thrown away for nothing.
    await expect(
      db().$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`DELETE FROM "${table}" WHERE false`);
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await version()).toBe(before + 1n);
  });

  it("is not bumped by writes the storefront does not read", async () => {
    const before = await version();
    for (const table of ["User", "SchoolMembership", "Subscription", "Payment", "ApiKey", "IdempotencyKey", "OAuthGrant", "OAuthAccessToken", "OAuthRefreshToken"]) {
      await sql(`DELETE FROM "${table}" WHERE false`);
    }
    expect(await version()).toBe(before);
  });

  it("has exactly one row", async () => {
    await expect(sql(`INSERT INTO "ContentVersion" ("id", "version") VALUES (2, 0)`)).rejects.toThrow();
    expect(await db().contentVersion.count()).toBe(1);
  });
});

describe("cached storefront pages", () => {
  // The test project reads the version on every request (STOREFRONT_REVALIDATE_MS=0).
  const COURSE = "/api/md/courses/intro-to-sql";
  const where = `"schoolId" = '${DEMO_IDS.school}' AND "slug" = 'intro-to-sql'`;

  it("a write from any client shows on the very next request, in markdown and llms files", async () => {
    for (const path of [COURSE, "/llms.txt", "/llms-full.txt"]) await text(path);
    // Plain SQL, as a CMS or psql would write it: nothing in the app is told.
    await sql(`UPDATE "Course" SET "title" = 'SQL from zero' WHERE ${where}`);
    try {
      expect(await text(COURSE)).toContain("# SQL from zero");
      expect(await text("/llms.txt")).toContain("[SQL from zero]");
      expect(await text("/llms-full.txt")).toContain("# SQL from zero");
    } finally {
      await sql(`UPDATE "Course" SET "title" = 'Intro to SQL' WHERE ${where}`);
    }
    expect(await text(COURSE)).toContain("# Intro to SQL");
  });

  it("serves the cached page until the version changes: no rebuild per request", async () => {
    const cached = await text(COURSE);
    // Change the row behind the trigger's back: only the version bump may make it visible.
    await sql(`ALTER TABLE "Course" DISABLE TRIGGER "Course_content_version"`);
    try {
      await sql(`UPDATE "Course" SET "summary" = 'Changed without a version bump' WHERE ${where}`);
      expect(await text(COURSE)).toBe(cached);
      await sql(`UPDATE "ContentVersion" SET "version" = "version" + 1`);
      expect(await text(COURSE)).toContain("Changed without a version bump");
    } finally {
      await sql(`ALTER TABLE "Course" ENABLE TRIGGER "Course_content_version"`);
    }
  });

  it("the same ETag and 304 from a cached page", async () => {
    const first = await server.fetch(COURSE);
    await first.text();
    const etag = first.headers.get("etag")!;
    const second = await server.fetch(COURSE);
    expect(second.headers.get("etag")).toBe(etag);
    expect(await second.text()).toBe(await (await server.fetch(COURSE)).text());
    expect((await server.fetch(COURSE, { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("the homepage drops an event once it ends, with no write in between", async () => {
    setNow(new Date("2026-12-10T18:00:00Z"));
    const before = await version();
    expect(await text("/api/md/home")).toContain("/api/md/events/sql-office-hours-december");
    setNow(new Date("2026-12-10T18:30:00.001Z"));
    expect(await text("/api/md/home")).not.toContain("/api/md/events/sql-office-hours-december");
    expect(await version()).toBe(before);
  });

  it("pages are per origin: absolute URLs follow the host asked", async () => {
    const other = await (await server.fetch(COURSE, { headers: { host: "127.0.0.1:3000" } })).text();
    const demo = await text(COURSE);
    expect(demo).toContain(`http://${DEMO_HOST}/courses/intro-to-sql`);
    expect(other).toContain("http://127.0.0.1:3000/courses/intro-to-sql");
  });
});

describe("with the production revalidation interval", () => {
  const COURSE = "/api/md/courses/intro-to-sql";
  const where = `"schoolId" = '${DEMO_IDS.school}' AND "slug" = 'intro-to-sql'`;

  it("a write shows once the interval since the last version read has passed, on the next request", async () => {
    const realNow = performance.now.bind(performance);
    let skew = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => realNow() + skew);
    process.env.STOREFRONT_REVALIDATE_MS = "5000";
    resetEnvCache();
    try {
      await text(COURSE); // reads the version
      await sql(`UPDATE "Course" SET "summary" = 'Shown within the interval' WHERE ${where}`);
      expect(await text(COURSE)).not.toContain("Shown within the interval");
      skew += 5000;
      expect(await text(COURSE)).toContain("Shown within the interval");
    } finally {
      clock.mockRestore();
      process.env.STOREFRONT_REVALIDATE_MS = "0";
      resetEnvCache();
    }
  });
});
