-- AlterTable
ALTER TABLE "School" ADD COLUMN     "cimdAllowed" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "WebhookAttempt" ADD COLUMN     "responseExcerpt" TEXT;

-- CreateIndex
CREATE INDEX "OAuthGrant_schoolId_clientId_idx" ON "OAuthGrant"("schoolId", "clientId");

