-- Content images (issue 29 item 10): stored with the content, served by the app from the database.
ALTER TABLE "School" ADD COLUMN "logoUrl" TEXT,
ADD COLUMN "faviconUrl" TEXT;

CREATE TABLE "ContentImage" (
    "schoolId" UUID NOT NULL,
    "sha256" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentImage_pkey" PRIMARY KEY ("schoolId","sha256")
);

ALTER TABLE "ContentImage" ADD CONSTRAINT "ContentImage_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "School"("id") ON DELETE CASCADE ON UPDATE CASCADE;
