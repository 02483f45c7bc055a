-- AlterTable
ALTER TABLE "IdempotencyKey" ADD COLUMN     "grantId" UUID,
ALTER COLUMN "apiKeyId" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "IdempotencyKey_grantId_key_key" ON "IdempotencyKey"("grantId", "key");

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_grantId_fkey" FOREIGN KEY ("grantId") REFERENCES "OAuthGrant"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Exactly one owner per key (Prisma cannot express CHECK constraints).
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_one_owner" CHECK (("apiKeyId" IS NULL) <> ("grantId" IS NULL));
