-- AlterTable
ALTER TABLE "OAuthAuthorizationCode" ADD COLUMN     "nonce" TEXT;

-- AlterTable
ALTER TABLE "OAuthGrant" ADD COLUMN     "authTime" TIMESTAMPTZ(3),
ADD COLUMN     "sessionId" UUID;

-- CreateTable
CREATE TABLE "OidcSigningKey" (
    "id" UUID NOT NULL,
    "kid" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "publicJwk" JSONB NOT NULL,
    "privateKeyCiphertext" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "activatesAt" TIMESTAMPTZ(3) NOT NULL,
    "retiredAt" TIMESTAMPTZ(3),

    CONSTRAINT "OidcSigningKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OidcSigningKey_kid_key" ON "OidcSigningKey"("kid");


-- Every instance keeps the key set in process (lib/oidc/key-store.ts) at the CredentialVersion it
-- loaded it at, like API keys and OAuth clients: a key added (rotation) or retired anywhere (the
-- keys CLI, another instance) bumps the version, so every instance signs with the same active key
-- and stops trusting a retired one within STOREFRONT_REVALIDATE_MS, without a restart.
CREATE TRIGGER "OidcSigningKey_credential_version"
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "OidcSigningKey"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_credential_version"();
