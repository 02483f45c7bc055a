import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashSecret } from "../credentials/secret";
import { CLIENT_SECRET_PREFIX, generateClientSecret, hashClientSecret, matchClientSecret, verifyClientSecret } from "./client-secret";

describe("client secrets", () => {
  it("are issued with the ocs_ prefix and 256 random bits, never twice the same", () => {
    const a = generateClientSecret();
    expect(a).toMatch(/^ocs_[A-Za-z0-9_-]{43}$/);
    expect(a.startsWith(CLIENT_SECRET_PREFIX)).toBe(true);
    expect(new Set(Array.from({ length: 200 }, generateClientSecret)).size).toBe(200);
  });

  it("are stored salted: the same secret hashes differently each time and never appears in the hash", () => {
    const secret = generateClientSecret();
    const [h1, h2] = [hashClientSecret(secret), hashClientSecret(secret)];
    expect(h1).toMatch(/^s256\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(h1).not.toBe(h2);
    expect(h1).not.toContain(secret);
    expect(h1).not.toContain(hashSecret(secret));
    expect(verifyClientSecret(secret, h1)).toBe(true);
    expect(verifyClientSecret(secret, h2)).toBe(true);
  });

  it("verify refuses another secret, a truncated one, and stored values in any other form", () => {
    const secret = generateClientSecret();
    const stored = hashClientSecret(secret);
    expect(verifyClientSecret(`${secret}x`, stored)).toBe(false);
    expect(verifyClientSecret(secret.slice(0, -1), stored)).toBe(false);
    expect(verifyClientSecret("", stored)).toBe(false);
    // The old unsalted digest, nothing, or a mangled value: no match (and no throw).
    for (const bad of [hashSecret(secret), null, undefined, "", "s256$zz$00", stored.slice(0, -1), stored.toUpperCase()]) {
      expect(verifyClientSecret(secret, bad)).toBe(false);
    }
  });

  it("the hash is SHA-256(salt || SHA-256 hex of the secret), the form the migration computes from old rows", () => {
    const salt = Buffer.from("00112233445566778899aabbccddeeff", "hex");
    const secret = "demo-confidential-secret-dev-only";
    const legacy = hashSecret(secret);
    const migrated = `s256$${salt.toString("hex")}$${createHash("sha256").update(Buffer.concat([salt, Buffer.from(legacy, "utf8")])).digest("hex")}`;
    expect(hashClientSecret(secret, salt)).toBe(migrated);
    expect(verifyClientSecret(secret, migrated)).toBe(true);
  });

  it("after a rotation the previous secret matches until its overlap ends, then never", () => {
    const [oldSecret, newSecret] = [generateClientSecret(), generateClientSecret()];
    const until = new Date("2026-11-24T08:00:00Z");
    const client = { clientSecretHash: hashClientSecret(newSecret), previousClientSecretHash: hashClientSecret(oldSecret), previousClientSecretExpiresAt: until };
    expect(matchClientSecret(newSecret, client, new Date("2026-11-23T08:00:00Z"))).toBe("current");
    expect(matchClientSecret(oldSecret, client, new Date(until.getTime() - 1))).toBe("previous");
    expect(matchClientSecret(oldSecret, client, until)).toBeNull();
    expect(matchClientSecret(newSecret, client, new Date(until.getTime() + 1e9))).toBe("current");
    expect(matchClientSecret(oldSecret, { ...client, previousClientSecretExpiresAt: null }, new Date(0))).toBeNull();
    expect(matchClientSecret("guess", client, new Date(0))).toBeNull();
  });
});
