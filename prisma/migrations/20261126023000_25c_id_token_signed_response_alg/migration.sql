-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "idTokenSignedResponseAlg" TEXT NOT NULL DEFAULT 'RS256';
