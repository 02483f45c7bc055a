-- The staff console (docs/decisions.md, "Staff console").

-- Step-up: the last password entry on a session (lib/console/step-up.ts).
ALTER TABLE "MemberSession" ADD COLUMN     "authenticatedAt" TIMESTAMPTZ(3);

-- A member disabled at one school (lib/console/disable-member.ts).
ALTER TABLE "SchoolMembership" ADD COLUMN     "disabledAt" TIMESTAMPTZ(3);

-- The console's forms are idempotent per member session (lib/console/form-guard.ts).
ALTER TABLE "IdempotencyKey" ADD COLUMN     "sessionId" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "IdempotencyKey_sessionId_key_key" ON "IdempotencyKey"("sessionId", "key");

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "MemberSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Exactly one owner per key, now of three kinds (Prisma cannot express CHECK constraints).
ALTER TABLE "IdempotencyKey" DROP CONSTRAINT "IdempotencyKey_one_owner";
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_one_owner" CHECK ((("apiKeyId" IS NOT NULL)::int + ("grantId" IS NOT NULL)::int + ("sessionId" IS NOT NULL)::int) = 1);
