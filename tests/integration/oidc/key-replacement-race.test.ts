// AUTH_SECRET changed under a running deployment: the active keys' private halves can no longer be
// opened, and a burst of requests that all need a signature arrives at once. Every one of them must
// get a token that verifies against the published key set, and exactly one replacement per alg is
// made (docs/decisions.md, "Signing keys: one set per deployment").
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { authSecret } from "@/lib/auth/auth-secret";
import { advance, now, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { openPrivateKey, sealPrivateKey } from "@/lib/oidc/key-seal";
import { publicJwks, signJwt, verifyOwnJwt } from "@/lib/oidc/keys";
import { appForSuite } from "../../helpers/app-for-suite";
import { exchangeCode, getCode, signIn } from "../oauth/helpers";

const app = appForSuite({ host: "demo.localhost" });
const OTHER_SECRET = "the AUTH_SECRET of before, thirty-two characters or more";

afterEach(() => setNow(null));

/** Re-seals every published key under another secret: what a changed AUTH_SECRET looks like to this process. */
async function sealedUnderAnotherSecret(): Promise<string[]> {
  const rows = await db().oidcSigningKey.findMany({ where: { retiredAt: null } });
  for (const row of rows) {
    let privateJwk: string;
    try {
      privateJwk = openPrivateKey(row.privateKeyCiphertext, authSecret());
    } catch {
      continue; // already unreadable (an earlier test)
    }
    const sealed = sealPrivateKey(privateJwk, OTHER_SECRET);
    await db().oidcSigningKey.update({ where: { kid: row.kid }, data: { privateKeyCiphertext: sealed } });
  }
  return rows.map((r) => r.kid);
}

const liveKeys = (alg: string) => db().oidcSigningKey.count({ where: { alg, retiredAt: null } });

async function verifiesAgainstJwks(tokens: string[]) {
  const jwks = createLocalJWKSet(await publicJwks());
  for (const token of tokens) await expect(jwtVerify(token, jwks, { currentDate: now() })).resolves.toBeTruthy();
}

describe("replacing an unreadable signing key under concurrency", () => {
  it("concurrent signings, begun a moment apart, all succeed with one replacement per alg", async () => {
    const before = await signJwt({ sub: "member" });
    await signJwt({ sub: "member" }, { alg: "ES256" });
    const oldKids = await sealedUnderAnotherSecret();

    // Each call takes its `now` when it starts: the later-launched ones started earlier, so whichever
    // wins the replacement, others began before the replacement's activation.
    const start = now();
    const calls: Promise<string>[] = [];
    for (let i = 0; i < 12; i++) {
      setNow(new Date(start.getTime() + (12 - i) * 3));
      calls.push(signJwt({ sub: `m${i}` }, i % 3 === 2 ? { alg: "ES256" } : {}));
    }
    const results = await Promise.allSettled(calls);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const tokens = results.map((r) => (r as PromiseFulfilledResult<string>).value);

    setNow(new Date(start.getTime() + 100));
    await verifiesAgainstJwks(tokens);
    for (const alg of ["RS256", "ES256"]) {
      const kids = new Set(tokens.filter((t) => decodeProtectedHeader(t).alg === alg).map((t) => decodeProtectedHeader(t).kid));
      expect(kids.size).toBe(1);
      expect(oldKids).not.toContain([...kids][0]);
      expect(await liveKeys(alg)).toBe(2);
    }
    // The unreadable key's public half stays published: what it signed before still verifies.
    expect(await verifyOwnJwt(before)).toMatchObject({ sub: "member" });
    expect((await publicJwks()).keys.map((k) => k.kid)).toEqual(expect.arrayContaining(oldKids));
    // Later signings use the replacement without another one.
    advance(1000);
    expect(tokens.map((t) => decodeProtectedHeader(t).kid)).toContain(decodeProtectedHeader(await signJwt({ sub: "m" })).kid);
    expect(await liveKeys("RS256")).toBe(2);
  });

  it("concurrent token requests through HTTP all get an ID token that verifies against jwks_uri", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    const params = { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback", scope: "openid profile" };
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) codes.push((await getCode(app, cookie, params)).code);
    const rsaBefore = await liveKeys("RS256");
    await sealedUnderAnotherSecret();

    const responses = await Promise.all(codes.map((code) => exchangeCode(app, code)));
    const bodies = await Promise.all(responses.map(async (r) => ({ status: r.status, body: (await r.json()) as { id_token?: string } })));
    expect(bodies.map((b) => b.status)).toEqual(codes.map(() => 200));
    const idTokens = bodies.map((b) => b.body.id_token!);
    const jwks = createLocalJWKSet((await (await app.fetch("/api/oauth/jwks")).json()) as { keys: [] });
    for (const token of idTokens) await expect(jwtVerify(token, jwks)).resolves.toBeTruthy();
    expect(new Set(idTokens.map((t) => decodeProtectedHeader(t).kid)).size).toBe(1);
    expect(await liveKeys("RS256")).toBe(rsaBefore + 1);
  });
});
