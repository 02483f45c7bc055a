-- CreateTable
CREATE TABLE "ConsoleSecretReveal" (
    "sessionId" UUID NOT NULL,
    "formToken" UUID NOT NULL,
    "sealed" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ConsoleSecretReveal_pkey" PRIMARY KEY ("sessionId","formToken")
);

-- CreateIndex
CREATE INDEX "ConsoleSecretReveal_expiresAt_idx" ON "ConsoleSecretReveal"("expiresAt");

-- AddForeignKey
ALTER TABLE "ConsoleSecretReveal" ADD CONSTRAINT "ConsoleSecretReveal_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "MemberSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

