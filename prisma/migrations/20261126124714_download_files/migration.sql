-- AlterTable
ALTER TABLE "DigitalDownload" ADD COLUMN     "fileSha256" TEXT;

-- CreateTable
CREATE TABLE "ContentFile" (
    "schoolId" UUID NOT NULL,
    "sha256" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentFile_pkey" PRIMARY KEY ("schoolId","sha256")
);

-- AddForeignKey
ALTER TABLE "ContentFile" ADD CONSTRAINT "ContentFile_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "School"("id") ON DELETE CASCADE ON UPDATE CASCADE;

