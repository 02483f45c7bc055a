-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "previousClientSecretExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "previousClientSecretHash" TEXT,
ADD COLUMN     "revokedAt" TIMESTAMPTZ(3);


-- Client secrets were stored as an unsalted SHA-256 (hex). They become salted without knowing the
-- secret: the new hash is SHA-256(salt || that hex digest), the scheme lib/oauth/client-secret.ts
-- verifies ("s256$<salt hex>$<hex>"), with a 16-byte salt per client (a random UUID's bits). gen_random_uuid()
-- and sha256() are core PostgreSQL (13+), so this runs on PGlite and Postgres alike.
UPDATE "OAuthClient" AS c
SET "clientSecretHash" = 's256$' || s.salt || '$' || encode(sha256(decode(s.salt, 'hex') || convert_to(c."clientSecretHash", 'UTF8')), 'hex')
FROM (SELECT "id", replace(gen_random_uuid()::text, '-', '') AS salt FROM "OAuthClient") AS s
WHERE s."id" = c."id" AND c."clientSecretHash" ~ '^[0-9a-f]{64}$';
