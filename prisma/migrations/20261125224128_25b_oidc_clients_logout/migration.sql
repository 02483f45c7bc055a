-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "backchannelLogoutUri" TEXT,
ADD COLUMN     "jwks" JSONB,
ADD COLUMN     "jwksUri" TEXT,
ADD COLUMN     "postLogoutRedirectUris" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "OAuthClientAssertion" (
    "clientId" TEXT NOT NULL,
    "jti" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "OAuthClientAssertion_pkey" PRIMARY KEY ("clientId","jti")
);

-- CreateTable
CREATE TABLE "BackchannelLogout" (
    "id" UUID NOT NULL,
    "schoolId" UUID NOT NULL,
    "clientId" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "sub" TEXT NOT NULL,
    "sid" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "leaseUntil" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "deliveredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "BackchannelLogout_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OAuthClientAssertion_expiresAt_idx" ON "OAuthClientAssertion"("expiresAt");

-- CreateIndex
CREATE INDEX "BackchannelLogout_status_nextAttemptAt_idx" ON "BackchannelLogout"("status", "nextAttemptAt");

-- AddForeignKey
ALTER TABLE "BackchannelLogout" ADD CONSTRAINT "BackchannelLogout_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "School"("id") ON DELETE CASCADE ON UPDATE CASCADE;

