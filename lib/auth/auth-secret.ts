import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

import { DEV_AUTH_SECRET, env, type Env } from "../env";

export type AuthSecretSource = Pick<Env, "NODE_ENV" | "AUTH_SECRET" | "DATABASE_URL" | "PGLITE_DATA_DIR">;

/** The secret that signs sessions and CSRF tokens in this process. */
export function authSecret(): string {
  return resolveAuthSecret(env());
}

// Next.js bundles proxy, pages and route handlers separately: a per-process secret must live on
// globalThis or each bundle would sign with its own.
const slot = globalThis as typeof globalThis & { __schoolhouseAuthSecret?: string };

const generate = () => randomBytes(32).toString("base64url");

/** Where the embedded database keeps its generated secret: beside the data directory, like its lock. */
export function authSecretFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.auth-secret`;
}

/**
 * The session secret: AUTH_SECRET when set; the published test secret under NODE_ENV=test; for the
 * embedded database a secret generated at first start and kept in a 0600 file beside the data
 * directory (so sessions survive restarts); otherwise (memory:// or a development DATABASE_URL)
 * one random secret per process. Nobody else knows any of the generated ones.
 */
export function resolveAuthSecret(e: AuthSecretSource): string {
  if (e.AUTH_SECRET) return e.AUTH_SECRET;
  if (e.NODE_ENV === "test") return DEV_AUTH_SECRET;
  if (slot.__schoolhouseAuthSecret) return slot.__schoolhouseAuthSecret;
  const persistent = !e.DATABASE_URL && !e.PGLITE_DATA_DIR.startsWith("memory://");
  slot.__schoolhouseAuthSecret = persistent ? readOrCreateSecretFile(authSecretFile(e.PGLITE_DATA_DIR)) : generate();
  return slot.__schoolhouseAuthSecret;
}

/** Test hook: forget the per-process secret. */
export function resetGeneratedAuthSecret(): void {
  slot.__schoolhouseAuthSecret = undefined;
}

export function readOrCreateSecretFile(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // "wx": of two processes starting at once, one creates the file and the other reads it.
    writeFileSync(file, `${generate()}\n`, { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  // A copied or restored file may have lost its mode; the secret must stay owner-only.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable secret (delete it to generate a new one)`);
  return secret;
}
