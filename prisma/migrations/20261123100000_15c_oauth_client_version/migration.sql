-- The process cache of OAuth clients (lib/oauth/client-cache.ts) trusts a cached client row only at
-- the CredentialVersion it was loaded at, like the API-key cache. Every column of a client is
-- something an endpoint reads (secret hashes, revocation, redirect URIs, grant types, scope, school),
-- so any update bumps it, as do deletes (a school deleted cascades to its clients) and truncation.
-- A new client needs no bump: a miss is never cached. Statement-level, so a bulk change bumps once.
CREATE TRIGGER "OAuthClient_credential_version"
    AFTER UPDATE OR DELETE OR TRUNCATE ON "OAuthClient"
    FOR EACH STATEMENT EXECUTE FUNCTION "bump_credential_version"();
