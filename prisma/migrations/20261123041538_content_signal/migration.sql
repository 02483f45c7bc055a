-- AlterTable
ALTER TABLE "School" ADD COLUMN     "contentSignalAiInput" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "contentSignalAiTrain" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "contentSignalSearch" BOOLEAN NOT NULL DEFAULT true;

