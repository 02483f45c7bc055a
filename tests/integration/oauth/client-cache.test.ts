// OAuth clients are authenticated from a process cache (lib/oauth/client-cache.ts) whose entries
// hold only while the database's CredentialVersion is unchanged; a trigger on OAuthClient bumps it on
// every update or delete. These tests run with the production-like bound set explicitly.
//
// The probe is a refresh_token request with a refresh token that does not exist: client
// authentication runs first, so 401 invalid_client means the client was refused and 400
// invalid_grant means it was accepted.
import { describe, expect, it } from "vitest";
import { credentialVersion, pastBound, withCredentialBound } from "@/tests/helpers/credential-bound";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { createOAuthClient } from "@/lib/oauth/client-admin/create-client";
import { revokeOAuthClient } from "@/lib/oauth/client-admin/revoke-client";
import { rotateClientSecret } from "@/lib/oauth/client-admin/rotate-client-secret";
import { generateClientSecret, hashClientSecret } from "@/lib/oauth/client-secret";
import { oauthClientCacheStats } from "@/lib/oauth/client-cache";
import { appForSuite } from "../../helpers/app-for-suite";
import { form } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = appForSuite({ host: "demo.localhost" });

const version = credentialVersion;
const newClient = async (name: string) =>
  createOAuthClient({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "demo", name, redirectUris: ["https://reports.example/callback"], scope: "openid", confidential: true });

async function probe(clientId: string, secret: string): Promise<"accepted" | "refused"> {
  const res = await app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: "shr_nope", client_id: clientId, client_secret: secret }));
  const { error } = (await res.json()) as { error: string };
  if (res.status === 400 && error === "invalid_grant") return "accepted";
  if (res.status === 401 && error === "invalid_client") return "refused";
  throw new Error(`unexpected answer ${res.status} ${error}`);
}


withCredentialBound();

describe("the OAuth client cache", () => {
  it("keeps checking every request's secret against a cached row", async () => {
    const { client, secret } = await newClient("cached");
    expect(await probe(client.clientId, secret!)).toBe("accepted");
    expect(oauthClientCacheStats().entries).toBeGreaterThan(0);
    expect(await probe(client.clientId, secret!)).toBe("accepted");
    // A verdict is never cached: a wrong secret for a cached client is refused.
    expect(await probe(client.clientId, `${secret}x`)).toBe("refused");
  });

  it("refuses a secret rotated away (no overlap) by this process at once", async () => {
    const { client, secret } = await newClient("rotated here");
    expect(await probe(client.clientId, secret!)).toBe("accepted");
    const rotated = await rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now(), overlap: false });
    expect(await probe(client.clientId, secret!)).toBe("refused");
    expect(await probe(client.clientId, rotated.secret)).toBe("accepted");
  });

  it("refuses a client revoked by this process at once", async () => {
    const { client, secret } = await newClient("revoked here");
    expect(await probe(client.clientId, secret!)).toBe("accepted");
    await revokeOAuthClient({ actor: TEST_ACTOR, db: db(), clientId: client.clientId, now: now() });
    expect(await probe(client.clientId, secret!)).toBe("refused");
  });

  it("refuses a secret changed by another client (plain SQL) once the bound has passed", async () => {
    const { client, secret } = await newClient("rotated elsewhere");
    const { secret: other } = await newClient("other");
    expect(await probe(client.clientId, secret!)).toBe("accepted");
    const before = await version();
    // Another instance's rotation: the other client's hash, so `other` becomes this client's secret.
    await db().$executeRaw`UPDATE "OAuthClient" SET "clientSecretHash" = (SELECT "clientSecretHash" FROM "OAuthClient" WHERE "name" = 'other')
      WHERE "clientId" = ${client.clientId}`;
    expect(await version()).toBeGreaterThan(before);
    await pastBound();
    expect(await probe(client.clientId, secret!)).toBe("refused");
    expect(await probe(client.clientId, other!)).toBe("accepted");
  });

  it("refuses a client revoked or deleted by another client once the bound has passed", async () => {
    const revoked = await newClient("revoked elsewhere");
    const deleted = await newClient("deleted elsewhere");
    expect(await probe(revoked.client.clientId, revoked.secret!)).toBe("accepted");
    expect(await probe(deleted.client.clientId, deleted.secret!)).toBe("accepted");
    let v = await version();
    await db().$executeRaw`UPDATE "OAuthClient" SET "revokedAt" = now() WHERE "clientId" = ${revoked.client.clientId}`;
    expect(await version()).toBeGreaterThan(v);
    v = await version();
    await db().$executeRaw`DELETE FROM "OAuthClient" WHERE "clientId" = ${deleted.client.clientId}`;
    expect(await version()).toBeGreaterThan(v);
    await pastBound();
    expect(await probe(revoked.client.clientId, revoked.secret!)).toBe("refused");
    expect(await probe(deleted.client.clientId, deleted.secret!)).toBe("refused");
  });

  it("never caches an unknown client_id: a client created right after a miss works at once", async () => {
    const clientId = "oc_created_after_a_miss";
    const secret = generateClientSecret();
    const entries = oauthClientCacheStats().entries;
    expect(await probe(clientId, secret)).toBe("refused");
    expect(oauthClientCacheStats().entries).toBe(entries);
    // Inserting bumps nothing (no trigger on INSERT): only the uncached miss lets it be seen.
    await db().oAuthClient.create({
      data: { clientId, name: "created after a miss", clientSecretHash: hashClientSecret(secret), tokenEndpointAuthMethod: "client_secret_post", scope: "openid" },
    });
    expect(await probe(clientId, secret)).toBe("accepted");
  });
});
