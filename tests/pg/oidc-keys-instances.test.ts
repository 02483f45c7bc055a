// Two instances on one Postgres (two database handles, each with its own process caches, as two
// servers have): they make one key set between them at first start, sign with the same active key,
// verify each other's tokens, and follow a rotation or retirement made by the other without a restart.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { authSecret } from "@/lib/auth/auth-secret";
import { closeDbHandle, createDbHandle, dbHandle, setDbHandle, type DbHandle } from "@/lib/db/client";
import { createPgDriver } from "@/lib/db/driver";
import { openPrivateKey, sealPrivateKey } from "@/lib/oidc/key-seal";
import { KEY_PUBLISH_AHEAD_SECONDS, MAX_SIGNED_TOKEN_TTL_SECONDS } from "@/lib/oidc/key-store";
import { JwtVerificationError, publicJwks, signJwt, verifyOwnJwt } from "@/lib/oidc/keys";
import { retireSigningKeys } from "@/lib/oidc/retire-signing-keys";
import { rotateSigningKey } from "@/lib/oidc/rotate-signing-key";

let a: DbHandle;
let b: DbHandle;

async function on<T>(handle: DbHandle, body: () => Promise<T>): Promise<T> {
  setDbHandle(handle);
  try {
    return await body();
  } finally {
    setDbHandle(a);
  }
}

beforeAll(() => {
  a = dbHandle();
  if (a.driver.kind !== "pg") throw new Error("a Postgres test");
  b = createDbHandle(createPgDriver(a.driver.url));
});
afterAll(async () => {
  setNow(null);
  setDbHandle(a);
  await closeDbHandle(b);
});

describe("signing keys across instances", () => {
  it("two instances starting together make one key per alg and sign with it", async () => {
    const [ka, kb] = await Promise.all([on(a, publicJwks), on(b, publicJwks)]);
    expect(ka.keys.map((k) => k.kid).sort()).toEqual(kb.keys.map((k) => k.kid).sort());
    expect(ka.keys).toHaveLength(2);
    const fromA = await on(a, () => signJwt({ sub: "m" }));
    const fromB = await on(b, () => signJwt({ sub: "m" }));
    expect(decodeProtectedHeader(fromA).kid).toBe(decodeProtectedHeader(fromB).kid);
    expect(await on(b, () => verifyOwnJwt(fromA))).toMatchObject({ sub: "m" });
  });

  it("a rotation and a retirement on one instance hold on the other without a restart", async () => {
    setNow(now());
    const before = await on(b, () => signJwt({ sub: "m", exp: Math.floor(now().getTime() / 1000) + MAX_SIGNED_TOKEN_TTL_SECONDS }));
    const [made] = await on(a, () => rotateSigningKey({ now: now(), alg: "RS256" }));
    expect((await on(b, publicJwks)).keys.map((k) => k.kid)).toContain(made!.kid);
    advance(KEY_PUBLISH_AHEAD_SECONDS * 1000);
    expect(decodeProtectedHeader(await on(b, () => signJwt({ sub: "m" }))).kid).toBe(made!.kid);
    expect(decodeProtectedHeader(await on(a, () => signJwt({ sub: "m" }))).kid).toBe(made!.kid);
    expect(await on(a, () => verifyOwnJwt(before, { allowExpired: true }))).toMatchObject({ sub: "m" });
    advance(MAX_SIGNED_TOKEN_TTL_SECONDS * 1000);
    expect(await on(a, () => retireSigningKeys({ now: now() }))).toEqual([decodeProtectedHeader(before).kid]);
    await expect(on(b, () => verifyOwnJwt(before, { allowExpired: true }))).rejects.toBeInstanceOf(JwtVerificationError);
  });

  it("an AUTH_SECRET change: both instances replace at once, the database picks one key, every signing succeeds", async () => {
    setNow(now());
    const rows = await a.prisma.oidcSigningKey.findMany({ where: { retiredAt: null } });
    for (const row of rows) {
      const sealed = sealPrivateKey(openPrivateKey(row.privateKeyCiphertext, authSecret()), "the AUTH_SECRET of before, thirty-two characters or more");
      await a.prisma.oidcSigningKey.update({ where: { kid: row.kid }, data: { privateKeyCiphertext: sealed } });
    }
    const start = now().getTime();
    const live = (alg: string) => a.prisma.oidcSigningKey.count({ where: { alg, retiredAt: null } });
    const rsaBefore = await live("RS256");
    const esBefore = await live("ES256");
    // Instance a replaces first; b's request began a moment earlier, before the replacement activates.
    setNow(new Date(start + 50));
    const fromA = await on(a, () => signJwt({ sub: "a" }));
    setNow(new Date(start + 10));
    const fromB = await on(b, () => signJwt({ sub: "b" }));
    expect(decodeProtectedHeader(fromB).kid).toBe(decodeProtectedHeader(fromA).kid);
    expect(await live("RS256")).toBe(rsaBefore + 1);

    // Both at once, each with its own process state, calls begun at different moments.
    const calls: Promise<string>[] = [];
    for (let i = 0; i < 10; i++) {
      setNow(new Date(start + 100 - i * 5));
      calls.push(on(i % 2 ? a : b, () => signJwt({ sub: `m${i}` }, { alg: "ES256" })));
    }
    const tokens = await Promise.all(calls);
    expect(new Set(tokens.map((t) => decodeProtectedHeader(t).kid)).size).toBe(1);
    expect(await live("ES256")).toBe(esBefore + 1);
    setNow(new Date(start + 200));
    const jwks = createLocalJWKSet(await on(b, publicJwks));
    for (const token of [fromA, fromB, ...tokens]) await expect(jwtVerify(token, jwks, { currentDate: now() })).resolves.toBeTruthy();
  });
});
