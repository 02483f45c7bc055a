-- AlterTable
ALTER TABLE "MemberSession" ADD COLUMN     "lastSeenAt" TIMESTAMPTZ(3),
ADD COLUMN     "userAgent" TEXT;
