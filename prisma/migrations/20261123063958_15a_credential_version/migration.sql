-- CreateTable
CREATE TABLE "CredentialVersion" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,
    "changedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CredentialVersion_pkey" PRIMARY KEY ("id")
);


-- The process cache of verified Admin API keys (lib/admin-api/api-key-cache.ts) trusts a cached key
-- only at this row's version. The database bumps it, not the app, so a revocation by any client (the
-- apikey CLI, psql, another deployment) invalidates every process's cache within the bound the
-- processes re-read it at (STOREFRONT_REVALIDATE_MS, the content cache's bound).
ALTER TABLE "CredentialVersion" ADD CONSTRAINT "CredentialVersion_single_row" CHECK ("id" = 1);
INSERT INTO "CredentialVersion" ("id", "version") VALUES (1, 0);

CREATE FUNCTION "bump_credential_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "CredentialVersion" SET "version" = "version" + 1, "changedAt" = CURRENT_TIMESTAMP WHERE "id" = 1;
  RETURN NULL;
END
$$;

-- Only the columns verification reads: "lastUsedAt" (written once a minute per key in use) must not
-- empty every cache. A new key needs no bump (misses are never cached). Statement-level, so a bulk
-- change bumps once; cascaded deletes (a school deleted) fire it too.
CREATE TRIGGER "ApiKey_credential_version"
    AFTER UPDATE OF "schoolId", "prefix", "secretHash", "permissions", "enforceLimits", "expiresAt", "revokedAt" OR DELETE OR TRUNCATE ON "ApiKey"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_credential_version"();
-- A disabled school's keys stop working with it.
CREATE TRIGGER "School_credential_version"
    AFTER UPDATE OF "disabledAt" OR DELETE OR TRUNCATE ON "School"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_credential_version"();
