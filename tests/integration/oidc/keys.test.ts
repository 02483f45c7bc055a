// The OpenID Connect signing keys (lib/oidc): made at first use, stored encrypted, published without
// their private parts, rotated with overlap and retired only when nothing they signed can be live.
import { base64url, decodeProtectedHeader, SignJWT, UnsecuredJWT, createLocalJWKSet, generateKeyPair, jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { KEY_PUBLISH_AHEAD_SECONDS, MAX_SIGNED_TOKEN_TTL_SECONDS, openedKidsForTests } from "@/lib/oidc/key-store";
import { openPrivateKey } from "@/lib/oidc/key-seal";
import { JwtVerificationError, publicJwks, signJwt, verifyOwnJwt } from "@/lib/oidc/keys";
import { listSigningKeys } from "@/lib/oidc/list-signing-keys";
import { retireSigningKeys, SigningKeyCommandError } from "@/lib/oidc/retire-signing-keys";
import { rotateSigningKey } from "@/lib/oidc/rotate-signing-key";
import { authSecret } from "@/lib/auth/auth-secret";

afterEach(() => setNow(null));

const refusal = async (token: string, options?: { typ?: string }) => {
  try {
    await verifyOwnJwt(token, options);
  } catch (error) {
    expect(error).toBeInstanceOf(JwtVerificationError);
    return (error as JwtVerificationError).reason;
  }
  throw new Error("verified");
};

describe("signing keys", () => {
  it("are made at first use, one RS256 and one ES256, stored encrypted, published as public parts only", async () => {
    expect(await db().oidcSigningKey.count()).toBe(0);
    const { keys } = await publicJwks();
    expect(keys.map((k) => k.alg).sort()).toEqual(["ES256", "RS256"]);
    for (const k of keys) {
      expect(k.use).toBe("sig");
      expect(k.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Object.keys(k).sort()).toEqual(k.kty === "RSA" ? ["alg", "e", "kid", "kty", "n", "use"] : ["alg", "crv", "kid", "kty", "use", "x", "y"]);
    }
    const rows = await db().oidcSigningKey.findMany();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      // The private key is not readable from the row: sealed, and only this AUTH_SECRET opens it.
      expect(row.privateKeyCiphertext).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      expect(row.privateKeyCiphertext).not.toContain('"d"');
      expect(JSON.parse(openPrivateKey(row.privateKeyCiphertext, authSecret())).d).toBeTruthy();
      expect(() => openPrivateKey(row.privateKeyCiphertext, "another secret of at least thirty-two characters")).toThrow();
      expect(JSON.stringify(row.publicJwk)).not.toContain('"d"');
    }
    // Used again: no new keys.
    await signJwt({ sub: "x" });
    expect(await db().oidcSigningKey.count()).toBe(2);
  });

  it("sign RS256 by default and ES256 on request, with kid and typ; verifyOwnJwt and the published set agree", async () => {
    const jwks = createLocalJWKSet(await publicJwks());
    for (const alg of ["RS256", "ES256"] as const) {
      const token = await signJwt({ sub: "member", aud: "client" }, alg === "RS256" ? { typ: "logout+jwt" } : { alg });
      const header = decodeProtectedHeader(token);
      expect(header).toEqual({ alg, kid: expect.any(String), ...(alg === "RS256" ? { typ: "logout+jwt" } : {}) });
      expect(header.kid).toBeTruthy();
      const { payload } = await jwtVerify(token, jwks, { currentDate: now() });
      expect(payload).toMatchObject({ sub: "member", aud: "client" });
      expect(payload.exp! - payload.iat!).toBe(120);
      expect(await verifyOwnJwt(token)).toMatchObject({ sub: "member" });
    }
    const logout = await signJwt({ sub: "m" }, { typ: "logout+jwt" });
    expect(await verifyOwnJwt(logout, { typ: "logout+jwt" })).toMatchObject({ sub: "m" });
    // Headers are encoded once per key and typ: the same key without typ gets none.
    expect(decodeProtectedHeader(await signJwt({ sub: "m" }))).toEqual({ alg: "RS256", kid: decodeProtectedHeader(logout).kid });
    expect(await refusal(logout, { typ: "JWT" })).toBe("wrong_typ");
    await expect(signJwt({ exp: Math.floor(now().getTime() / 1000) + MAX_SIGNED_TOKEN_TTL_SECONDS + 5 })).rejects.toThrow(/at most/);
  });

  it("refuse alg none, HMAC with the public key, an unknown kid, a kid under another alg, a bad signature, expiry", async () => {
    const good = await signJwt({ sub: "member" });
    const { kid } = decodeProtectedHeader(good);
    const [, body, sig] = good.split(".");
    const header = (h: object) => base64url.encode(JSON.stringify(h));

    expect(await refusal(new UnsecuredJWT({ sub: "member" }).encode())).toBe("alg_not_allowed");
    expect(await refusal(`${header({ alg: "none", kid })}.${body}.`)).toBe("alg_not_allowed");
    const rsa = (await publicJwks()).keys.find((k) => k.kid === kid)!;
    const hmac = await new SignJWT({ sub: "member" }).setProtectedHeader({ alg: "HS256", kid }).sign(new TextEncoder().encode(JSON.stringify(rsa)));
    expect(await refusal(hmac)).toBe("alg_not_allowed");
    expect(await refusal(`${header({ alg: "RS256", kid: "not-ours" })}.${body}.${sig}`)).toBe("unknown_kid");
    expect(await refusal(`${header({ alg: "RS256" })}.${body}.${sig}`)).toBe("unknown_kid");
    expect(await refusal(`${header({ alg: "ES256", kid })}.${body}.${sig}`)).toBe("alg_mismatch");
    expect(await refusal(`${good.split(".").slice(0, 2).join(".")}.${sig!.slice(0, -4)}AAAA`)).toBe("invalid_signature");
    // Signed by a key of the right kind that we never published, under our kid.
    const stranger = await generateKeyPair("RS256");
    expect(await refusal(await new SignJWT({ sub: "member" }).setProtectedHeader({ alg: "RS256", kid }).sign(stranger.privateKey))).toBe("invalid_signature");
    expect(await refusal("not a jwt")).toBe("malformed");

    setNow(now());
    const shortLived = await signJwt({ sub: "member" });
    advance(121_000);
    expect(await refusal(shortLived)).toBe("expired");
    // An id_token_hint may be expired: accepted when asked, everything else still checked.
    expect(await verifyOwnJwt(shortLived, { allowExpired: true })).toMatchObject({ sub: "member" });
  });

  it("rotate with overlap: published before signing, the old key verifies until retired, retirement waits for its tokens", async () => {
    setNow(now());
    await publicJwks();
    const before = await signJwt({ sub: "member", exp: Math.floor(now().getTime() / 1000) + MAX_SIGNED_TOKEN_TTL_SECONDS });
    const oldKid = decodeProtectedHeader(before).kid!;

    const [made] = await rotateSigningKey({ now: now(), alg: "RS256" });
    // Published at once, but the old key still signs.
    expect((await publicJwks()).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, made!.kid]));
    expect(decodeProtectedHeader(await signJwt({ sub: "m" })).kid).toBe(oldKid);
    await expect(retireSigningKeys({ now: now(), kid: oldKid })).rejects.toThrow(SigningKeyCommandError);
    expect((await listSigningKeys({ now: now() })).find((k) => k.kid === made!.kid)!.status.state).toBe("next");

    // From activation on, the new key signs; the token signed before still verifies.
    advance(KEY_PUBLISH_AHEAD_SECONDS * 1000);
    expect(decodeProtectedHeader(await signJwt({ sub: "m" })).kid).toBe(made!.kid);
    // The old key's private half stays opened in this process while it is published (it was opened to sign).
    expect(openedKidsForTests()).toContain(oldKid);
    expect(await verifyOwnJwt(before, { allowExpired: true })).toMatchObject({ sub: "member" });
    const stillValid = createLocalJWKSet(await publicJwks());
    await expect(jwtVerify(before, stillValid, { currentDate: new Date(now().getTime() - 1000) })).resolves.toBeTruthy();

    // Its tokens may still be live: retire (all) leaves it, retire <kid> refuses without --force.
    expect(await retireSigningKeys({ now: now() })).toEqual([]);
    await expect(retireSigningKeys({ now: now(), kid: oldKid })).rejects.toThrow(/may be valid until/);
    await expect(retireSigningKeys({ now: now(), kid: made!.kid })).rejects.toThrow(/signs RS256 tokens now/);

    advance(MAX_SIGNED_TOKEN_TTL_SECONDS * 1000);
    expect(await retireSigningKeys({ now: now() })).toEqual([oldKid]);
    expect((await publicJwks()).keys.map((k) => k.kid)).not.toContain(oldKid);
    expect(await refusal(before)).toBe("unknown_kid");
    expect((await listSigningKeys({ now: now() })).find((k) => k.kid === oldKid)!.status.state).toBe("retired");
    // Reading the key set after retirement drops the retired key's opened private half from memory.
    await signJwt({ sub: "m" });
    expect(openedKidsForTests()).not.toContain(oldKid);
    expect(openedKidsForTests()).toContain(made!.kid);
  });

  it("a key sealed under another AUTH_SECRET is replaced by a new one, once; the old stays published", async () => {
    setNow(now());
    const before = await signJwt({ sub: "member" });
    const oldKid = decodeProtectedHeader(before).kid!;
    const other = await db().oidcSigningKey.findUniqueOrThrow({ where: { kid: oldKid } });
    const { sealPrivateKey } = await import("@/lib/oidc/key-seal");
    await db().oidcSigningKey.update({
      where: { kid: oldKid },
      data: { privateKeyCiphertext: sealPrivateKey(openPrivateKey(other.privateKeyCiphertext, authSecret()), "a different AUTH_SECRET of thirty-two characters") },
    });
    const [x, y] = await Promise.all([signJwt({ sub: "m" }), signJwt({ sub: "m" })]);
    const newKid = decodeProtectedHeader(x).kid;
    expect(newKid).not.toBe(oldKid);
    expect(decodeProtectedHeader(y).kid).toBe(newKid);
    expect(await db().oidcSigningKey.count({ where: { alg: "RS256", retiredAt: null, activatesAt: { lte: now() } } })).toBe(2);
    expect(await verifyOwnJwt(before)).toMatchObject({ sub: "member" });
  });

  it("rotate --now and retire --force replace a compromised key at once", async () => {
    setNow(now());
    const before = await signJwt({ sub: "member" }, { alg: "ES256" });
    const oldKid = decodeProtectedHeader(before).kid!;
    const [made] = await rotateSigningKey({ now: now(), alg: "ES256", immediately: true });
    expect(decodeProtectedHeader(await signJwt({ sub: "m" }, { alg: "ES256" })).kid).toBe(made!.kid);
    expect(await retireSigningKeys({ now: now(), kid: oldKid, force: true })).toEqual([oldKid]);
    expect(await refusal(before)).toBe("unknown_kid");
  });
});
