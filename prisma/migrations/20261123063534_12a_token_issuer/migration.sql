-- Issue 12: every grant records the origin (issuer) it was made on; its code, access tokens and
-- refresh tokens are refused on any other origin.
--
-- Backfill: grants made before this migration get '' (which equals no origin), so their tokens stop
-- working and their clients authorize again. The origin they were made on was never recorded and
-- cannot be derived here (scheme, port, proxy and custom domains are deployment settings), and any
-- guess would accept a token on an origin that never issued it. Codes live 60 s and access tokens
-- two hours; refresh-token holders get invalid_grant, which OAuth clients answer by starting a new
-- authorization (docs/decisions.md, "Security (issue 12)").
ALTER TABLE "OAuthGrant" ADD COLUMN "issuer" TEXT NOT NULL DEFAULT '';
ALTER TABLE "OAuthGrant" ALTER COLUMN "issuer" DROP DEFAULT;
