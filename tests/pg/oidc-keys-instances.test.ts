// Two instances on one Postgres (two database handles, each with its own process caches, as two
// servers have): they make one key set between them at first start, sign with the same active key,
// verify each other's tokens, and follow a rotation or retirement made by the other without a restart.
import { decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advance, now, setNow } from "@/lib/clock";
import { closeDbHandle, createDbHandle, dbHandle, setDbHandle, type DbHandle } from "@/lib/db/client";
import { createPgDriver } from "@/lib/db/driver";
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
});
