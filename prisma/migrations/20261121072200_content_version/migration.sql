-- CreateTable
CREATE TABLE "ContentVersion" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,
    "changedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentVersion_pkey" PRIMARY KEY ("id")
);

-- The storefront's page cache (lib/storefront/page-cache.ts) trusts a cached page while this one
-- row's version is unchanged. It is bumped by the database, not by the app, so writes from any
-- client (a CMS, a script, psql, another deployment) invalidate every process's cache.
ALTER TABLE "ContentVersion" ADD CONSTRAINT "ContentVersion_single_row" CHECK ("id" = 1);
INSERT INTO "ContentVersion" ("id", "version") VALUES (1, 0);

CREATE FUNCTION "bump_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ContentVersion" SET "version" = "version" + 1, "changedAt" = CURRENT_TIMESTAMP WHERE "id" = 1;
  RETURN NULL;
END
$$;

-- Every table a storefront page is built from. Statement-level, so a bulk import bumps once.
CREATE TRIGGER "School_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "School"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "HomePage_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "HomePage"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "MembershipPlan_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "MembershipPlan"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "Category_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Category"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "Lecturer_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Lecturer"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "Course_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Course"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "CourseLecturer_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "CourseLecturer"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "Post_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Post"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "Event_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Event"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "DigitalDownload_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "DigitalDownload"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
CREATE TRIGGER "FaqEntry_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "FaqEntry"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
