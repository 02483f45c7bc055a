import { mkdtempSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_AUTH_SECRET } from "../env";
import { authSecretFile, resetGeneratedAuthSecret, resolveAuthSecret } from "./auth-secret";

const base = { NODE_ENV: "production" as const, AUTH_SECRET: undefined, DATABASE_URL: undefined };

afterEach(() => resetGeneratedAuthSecret());

describe("resolveAuthSecret", () => {
  it("takes AUTH_SECRET when set and the published secret only under NODE_ENV=test", () => {
    expect(resolveAuthSecret({ ...base, AUTH_SECRET: "s".repeat(32), PGLITE_DATA_DIR: "memory://" })).toBe("s".repeat(32));
    expect(resolveAuthSecret({ ...base, NODE_ENV: "test", PGLITE_DATA_DIR: "memory://" })).toBe(DEV_AUTH_SECRET);
    for (const NODE_ENV of ["production", "development"] as const) {
      resetGeneratedAuthSecret();
      expect(resolveAuthSecret({ ...base, NODE_ENV, PGLITE_DATA_DIR: "memory://" })).not.toBe(DEV_AUTH_SECRET);
    }
  });

  it("generates one secret per process for memory:// and for a development DATABASE_URL", () => {
    const first = resolveAuthSecret({ ...base, PGLITE_DATA_DIR: "memory://" });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolveAuthSecret({ ...base, PGLITE_DATA_DIR: "memory://" })).toBe(first);
    resetGeneratedAuthSecret();
    expect(resolveAuthSecret({ ...base, PGLITE_DATA_DIR: "memory://" })).not.toBe(first);
    resetGeneratedAuthSecret();
    expect(resolveAuthSecret({ ...base, NODE_ENV: "development", DATABASE_URL: "postgresql://u@h/db", PGLITE_DATA_DIR: "memory://" })).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("keeps the embedded database's secret in a 0600 file beside the data directory", () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "sh-secret-")), "pglite");
    const secret = resolveAuthSecret({ ...base, PGLITE_DATA_DIR: dir });
    const file = authSecretFile(dir);
    expect(readFileSync(file, "utf8").trim()).toBe(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Next start reads the same file: sessions survive a restart.
    resetGeneratedAuthSecret();
    expect(resolveAuthSecret({ ...base, PGLITE_DATA_DIR: dir })).toBe(secret);
  });

  it("tightens a secret file that lost its mode and refuses an empty one", () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "sh-secret-")), "pglite");
    writeFileSync(authSecretFile(dir), "k".repeat(40));
    chmodSync(authSecretFile(dir), 0o644);
    expect(resolveAuthSecret({ ...base, PGLITE_DATA_DIR: dir })).toBe("k".repeat(40));
    expect(statSync(authSecretFile(dir)).mode & 0o777).toBe(0o600);
    resetGeneratedAuthSecret();
    writeFileSync(authSecretFile(dir), "short");
    expect(() => resolveAuthSecret({ ...base, PGLITE_DATA_DIR: dir })).toThrow(/no usable secret/);
  });
});
