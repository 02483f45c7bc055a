// The deployment's OpenID Connect signing keys: which exist, which one signs, which are published.
//
// Every instance keeps the key set in process and trusts it only at the CredentialVersion it was
// read at (lib/db/credential-cache.ts; a trigger bumps the version on every insert, retirement or
// delete), so a rotation or retirement made anywhere holds on every instance within
// STOREFRONT_REVALIDATE_MS, without a restart. Which key signs is computed from `activatesAt` and
// the caller's `now`, so instances switch to a rotated-in key at the same moment.
import { createPrivateKey, randomUUID, type JsonWebKey as NodeJwk, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import { authSecret } from "../auth/auth-secret";
import { db, dbHandle } from "../db/client";
import { createCredentialCache, toVersion } from "../db/credential-cache";
import { rawQuery } from "../db/raw";
import { securityEvent } from "../security/events";
import { openPrivateKey, sealPrivateKey } from "./key-seal";

export const SIGNING_ALGS = ["RS256", "ES256"] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];
/** RS256 is what every OpenID Connect client must accept (Core §15.1); ES256 is offered beside it. */
export const DEFAULT_SIGNING_ALG: SigningAlg = "RS256";

/**
 * The longest any token we sign may live (ID tokens live this long). A key that stopped signing
 * stays published at least this long, so every token it signed can still be verified.
 */
export const MAX_SIGNED_TOKEN_TTL_SECONDS = 60 * 60;
/** A rotated-in key is published this long before it signs: relying parties that cache jwks_uri see it first. */
export const KEY_PUBLISH_AHEAD_SECONDS = 60 * 60;
/**
 * The first keys count as active from this long before they were made, so an instance whose clock
 * is behind (or whose `now` was taken a moment earlier) sees them signing already instead of making
 * its own. They have no predecessor, so nothing is superseded early.
 */
export const CLOCK_SKEW_ALLOWANCE_SECONDS = 5 * 60;
/** How long jwks_uri may be cached: well under KEY_PUBLISH_AHEAD_SECONDS. */
export const JWKS_MAX_AGE_SECONDS = 10 * 60;

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
  privateKeyCiphertext: string;
  createdAt: Date;
  activatesAt: Date;
}

export const isSigningAlg = (alg: unknown): alg is SigningAlg => (SIGNING_ALGS as readonly unknown[]).includes(alg);

// One statement: the published keys and the version they were read at (one snapshot).
const LOAD_KEYS = `
SELECT (SELECT "version"::text FROM "CredentialVersion" WHERE "id" = 1) AS "version",
       coalesce((SELECT json_agg(json_build_object(
                   'kid', k."kid", 'alg', k."alg", 'publicJwk', k."publicJwk", 'privateKeyCiphertext', k."privateKeyCiphertext",
                   'createdAt', k."createdAt", 'activatesAt', k."activatesAt") ORDER BY k."activatesAt", k."createdAt", k."kid")
                   FROM "OidcSigningKey" k WHERE k."retiredAt" IS NULL), '[]'::json) AS "keys"`;

interface StoredKey extends Omit<SigningKey, "createdAt" | "activatesAt" | "publicJwk"> {
  publicJwk: JWK | string;
  createdAt: string;
  activatesAt: string;
}

const parseJson = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);

const cache = createCredentialCache<SigningKey[]>({
  name: "oidc-signing-keys",
  maxEntries: 1,
  async load() {
    const [row] = await rawQuery<{ version: string | null; keys: StoredKey[] | string }>(LOAD_KEYS, [], { name: "oidc-signing-keys", readOnly: true });
    const keys = parseJson(row?.keys ?? []).map((k) => ({
      ...k,
      publicJwk: parseJson(k.publicJwk),
      createdAt: new Date(k.createdAt),
      activatesAt: new Date(k.activatesAt),
    }));
    pruneOpenedKeys(keys);
    return { row: keys, version: toVersion(row?.version) };
  },
});

/** Every published key (not retired), oldest activation first. */
export async function publishedKeys(): Promise<SigningKey[]> {
  return (await cache.find("published")) ?? [];
}

/** Drops this process's copy, so a change it just made holds here at once. */
export function forgetSigningKeys(): void {
  cache.forget();
}

/** The key that signs `alg` at `now`: the published one that activated last. */
export function activeKey(keys: readonly SigningKey[], alg: SigningAlg, now: Date): SigningKey | null {
  let active: SigningKey | null = null;
  for (const k of keys) if (k.alg === alg && k.activatesAt <= now) active = k;
  return active;
}

/** When a key stopped signing (the next key of its alg activated), or null while it signs or waits. */
export function supersededAt(keys: readonly SigningKey[], key: SigningKey, now: Date): Date | null {
  const later = keys.filter((k) => k.alg === key.alg && k.activatesAt > key.activatesAt && k.activatesAt <= now);
  return later.length ? later[0]!.activatesAt : null;
}

/** A new key pair, its private half sealed: the row to insert. kid is the public key's RFC 7638 thumbprint. */
export async function newSigningKey(options: { alg: SigningAlg; now: Date; activatesAt: Date }) {
  const { alg, now, activatesAt } = options;
  const pair = await generateKeyPair(alg, alg === "RS256" ? { modulusLength: 2048, extractable: true } : { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateJwk = await exportJWK(pair.privateKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    id: randomUUID(),
    kid,
    alg,
    publicJwk: { ...publicJwk },
    privateKeyCiphertext: sealPrivateKey(JSON.stringify(privateJwk), authSecret()),
    createdAt: now,
    activatesAt,
  };
}

/**
 * Generates a key for every alg that has none signing yet (the first start; or every key was
 * retired). Instances starting together agree: the check and insert run under one advisory lock,
 * so exactly one key per alg is made.
 */
export async function ensureSigningKeys(now: Date): Promise<void> {
  const missing: SigningAlg[] = [];
  const keys = await publishedKeys();
  for (const alg of SIGNING_ALGS) if (!activeKey(keys, alg, now)) missing.push(alg);
  if (!missing.length) return;
  const activatesAt = new Date(now.getTime() - CLOCK_SKEW_ALLOWANCE_SECONDS * 1000);
  const made = await Promise.all(missing.map((alg) => newSigningKey({ alg, now, activatesAt })));
  await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('oidc-signing-keys'))::text`;
    const live = await tx.oidcSigningKey.findMany({ where: { retiredAt: null, activatesAt: { lte: now } }, select: { alg: true } });
    const have = new Set(live.map((k) => k.alg));
    const rows = made.filter((k) => !have.has(k.alg));
    if (rows.length) await tx.oidcSigningKey.createMany({ data: rows });
  });
  forgetSigningKeys();
}

/**
 * The key that signs in place of `kid` at `now`: a later key of its alg that is active or about to
 * be (within CLOCK_SKEW_ALLOWANCE_SECONDS: a replacement made by a caller whose `now` was a moment
 * later), or null when `kid` is still the last one.
 */
export function successorOf(keys: readonly SigningKey[], alg: SigningAlg, kid: string, now: Date): SigningKey | null {
  const at = keys.findIndex((k) => k.kid === kid);
  if (at < 0) return null;
  const horizon = now.getTime() + CLOCK_SKEW_ALLOWANCE_SECONDS * 1000;
  let next: SigningKey | null = null;
  for (const k of keys.slice(at + 1)) if (k.alg === alg && k.activatesAt.getTime() <= horizon) next = k;
  return next;
}

// Replacements under way in this process, by database handle and kid: concurrent callers that
// found the same key unreadable await one replacement instead of each making a key pair.
const replacing = new WeakMap<object, Map<string, Promise<SigningKey | null>>>();

/**
 * The active key `kid` cannot be opened with this process's AUTH_SECRET (AUTH_SECRET was changed,
 * or a development process generated its own): resolves to the key that signs in its place.
 * Within a process the replacement is single-flight; across instances the database decides (under
 * the advisory lock, the first to find `kid` still last makes the new key; every other caller,
 * here or on another instance, gets that one). The old public key stays published, so what it
 * signed still verifies until it is retired. Null when no key of `alg` is live any more (retired
 * meanwhile): the caller makes the set again (ensureSigningKeys).
 */
export function replaceUnreadableKey(options: { alg: SigningAlg; kid: string; now: Date; error?: unknown }): Promise<SigningKey | null> {
  const handle = dbHandle();
  let flights = replacing.get(handle);
  if (!flights) replacing.set(handle, (flights = new Map()));
  const known = flights.get(options.kid);
  if (known) return known;
  const flight = replaceOnce(options).finally(() => flights.delete(options.kid));
  flights.set(options.kid, flight);
  return flight;
}

async function replaceOnce(options: { alg: SigningAlg; kid: string; now: Date; error?: unknown }): Promise<SigningKey | null> {
  const { alg, kid, now } = options;
  // Another caller of this process already read the replacement.
  const cached = successorOf(await publishedKeys(), alg, kid, now);
  if (cached) return cached;
  const error = options.error;
  securityEvent("oidc.signing_key_unreadable", { kid, alg, ...(error ? { error: error instanceof Error ? error.message : String(error) } : {}) });
  // A replacement another instance made a moment "later" by its clock counts as made.
  const lastLive = async (client: Pick<ReturnType<typeof db>, "oidcSigningKey">) =>
    (
      await client.oidcSigningKey.findMany({
        where: { alg, retiredAt: null, activatesAt: { lte: new Date(now.getTime() + CLOCK_SKEW_ALLOWANCE_SECONDS * 1000) } },
        orderBy: [{ activatesAt: "desc" }, { createdAt: "desc" }, { kid: "desc" }],
        take: 1,
        select: { kid: true, activatesAt: true, createdAt: true },
      })
    )[0] ?? null;
  let winner = await lastLive(db());
  if (winner?.kid === kid) {
    // Ordered after the unreadable key even when both were made at this very `now` (tests; clock skew).
    const made = await newSigningKey({ alg, now, activatesAt: new Date(Math.max(now.getTime(), winner.activatesAt.getTime())) });
    made.createdAt = new Date(Math.max(now.getTime(), winner.createdAt.getTime() + 1));
    winner = await db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('oidc-signing-keys'))::text`;
      const last = await lastLive(tx);
      if (last?.kid !== kid) return last;
      await tx.oidcSigningKey.create({ data: made });
      return made;
    });
  }
  forgetSigningKeys();
  const keys = await publishedKeys();
  const winnerKid = winner?.kid;
  return keys.find((k) => k.kid === winnerKid) ?? activeKey(keys, alg, now);
}

// Public keys imported for verification, per process, by kid and JWK (a kid never changes its
// material). On globalThis: Next.js bundles routes separately and they share the process.
const slot = globalThis as typeof globalThis & {
  __schoolhouseOidcKeys?: Map<string, Promise<CryptoKey>>;
  __schoolhouseOidcPrivateKeys?: Map<string, OpenedKey>;
};
const imported = (slot.__schoolhouseOidcKeys ??= new Map());

function memo(id: string, make: () => Promise<CryptoKey>): Promise<CryptoKey> {
  let key = imported.get(id);
  if (!key) {
    key = make();
    imported.set(id, key);
    key.catch(() => imported.delete(id));
  }
  return key;
}

/** A signing key's private half, opened once per key version, with its JWS headers made once. */
export interface OpenedKey {
  kid: string;
  alg: SigningAlg;
  /** The sealed text it was opened from: another ciphertext under the same kid is opened anew. */
  ciphertext: string;
  privateKey: KeyObject;
  /** base64url of the JWS protected header, by typ ("" for none). */
  headers: Map<string, string>;
}

// Opened private keys, by kid. Unsealing (AES-GCM) and parsing the key cost more than a signature,
// so it happens once per key, not per token; a reload of the key set (any rotation, retirement or
// delete: the version bumps) drops the keys that are no longer published (pruneOpenedKeys), so a
// retired key's private half does not stay in memory (docs/security.md).
const opened = (slot.__schoolhouseOidcPrivateKeys ??= new Map());

/** The key's private half, ready to sign; throws when it cannot be opened with this AUTH_SECRET (never cached then). */
export function openedKeyOf(key: SigningKey): OpenedKey {
  const known = opened.get(key.kid);
  if (known && known.ciphertext === key.privateKeyCiphertext) return known;
  const jwk = JSON.parse(openPrivateKey(key.privateKeyCiphertext, authSecret())) as NodeJwk;
  const made: OpenedKey = { kid: key.kid, alg: key.alg, ciphertext: key.privateKeyCiphertext, privateKey: createPrivateKey({ key: jwk, format: "jwk" }), headers: new Map() };
  opened.set(key.kid, made);
  return made;
}

/** Drops the opened private keys of every kid not in `keys` (the key set just read). */
function pruneOpenedKeys(keys: readonly SigningKey[]): void {
  if (!opened.size) return;
  const live = new Set(keys.map((k) => k.kid));
  for (const kid of opened.keys()) if (!live.has(kid)) opened.delete(kid);
}

/** Opened private keys held by this process (tests: a retired key's is dropped). */
export const openedKidsForTests = (): string[] => [...opened.keys()];

export function publicKeyOf(key: SigningKey): Promise<CryptoKey> {
  return memo(`public:${key.kid}:${JSON.stringify(key.publicJwk)}`, async () => (await importJWK(key.publicJwk, key.alg)) as CryptoKey);
}
