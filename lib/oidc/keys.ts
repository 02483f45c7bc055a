// Signing and verifying the JWTs this deployment issues (ID tokens, logout tokens) with its
// OpenID Connect keys (key-store.ts), and the public key set jwks_uri serves.
import { sign } from "node:crypto";
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWK, type JWTPayload } from "jose";
import { now as clockNow } from "../clock";
import {
  activeKey,
  DEFAULT_SIGNING_ALG,
  ensureSigningKeys,
  isSigningAlg,
  MAX_SIGNED_TOKEN_TTL_SECONDS,
  openedKeyOf,
  publicKeyOf,
  publishedKeys,
  replaceUnreadableKey,
  SIGNING_ALGS,
  type SigningAlg,
  type OpenedKey,
  type SigningKey,
} from "./key-store";

export { SIGNING_ALGS, DEFAULT_SIGNING_ALG, MAX_SIGNED_TOKEN_TTL_SECONDS, type SigningAlg };

/** A token signed without its own `exp` lives this long (the Back-Channel Logout recommendation). */
export const DEFAULT_SIGNED_TOKEN_TTL_SECONDS = 120;

export type JwtRefusal =
  | "malformed"
  | "alg_not_allowed"
  | "unknown_kid"
  | "alg_mismatch"
  | "invalid_signature"
  | "wrong_typ"
  | "expired"
  | "invalid_claims";

/** A JWT we did not issue, or no longer vouch for. `reason` says which check refused it. */
export class JwtVerificationError extends Error {
  constructor(
    readonly reason: JwtRefusal,
    message: string,
  ) {
    super(message);
    this.name = "JwtVerificationError";
  }
}

/**
 * The active key for `alg`, opened. A key this process cannot open is replaced (replaceUnreadableKey:
 * one replacement, however many callers raced); a caller whose `now` was taken before the
 * replacement activated signs with the replacement too rather than failing, and a replacement that
 * cannot be opened either (a rotated-in key sealed under the old secret) is replaced in turn.
 */
async function signingKey(alg: SigningAlg, now: Date): Promise<OpenedKey> {
  let key = activeKey(await publishedKeys(), alg, now);
  for (let attempt = 0; ; attempt++) {
    if (!key) {
      await ensureSigningKeys(now);
      key = activeKey(await publishedKeys(), alg, now);
      if (!key) throw new Error(`no ${alg} signing key could be made`);
    }
    try {
      return openedKeyOf(key);
    } catch (error) {
      if (attempt >= 2) throw error;
      key = await replaceUnreadableKey({ alg, kid: key.kid, now, error });
    }
  }
}

/**
 * Signs `claims` with the active key for `alg` (RS256 unless asked), `kid` and `typ` in the header.
 * `iat` defaults to now and `exp` to DEFAULT_SIGNED_TOKEN_TTL_SECONDS after it; an `exp` beyond
 * MAX_SIGNED_TOKEN_TTL_SECONDS from now is refused, because a retired key's tokens must all have
 * expired (that bound is what makes retirement safe).
 *
 * The JWS (RFC 7515 compact serialization) is made here with node:crypto rather than jose's
 * SignJWT (docs/benchmarks.md, "ID tokens"): the header is encoded once per key and typ, and the
 * signature is computed on the libuv threadpool (`sign` with a callback), so an RSA signature does
 * not hold the event loop. jose still verifies (verifyOwnJwt), and the tests verify with jose and
 * oauth4webapi.
 */
export async function signJwt(claims: Record<string, unknown>, options: { typ?: string; alg?: SigningAlg } = {}): Promise<string> {
  const alg = options.alg ?? DEFAULT_SIGNING_ALG;
  if (!isSigningAlg(alg)) throw new Error(`unsupported signing alg ${String(alg)}`);
  const now = clockNow();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const iat = typeof claims.iat === "number" ? claims.iat : nowSeconds;
  const exp = typeof claims.exp === "number" ? claims.exp : iat + DEFAULT_SIGNED_TOKEN_TTL_SECONDS;
  if (exp > nowSeconds + MAX_SIGNED_TOKEN_TTL_SECONDS) throw new Error(`a signed token may live at most ${MAX_SIGNED_TOKEN_TTL_SECONDS} s`);
  const opened = await signingKey(alg, now);
  const typ = options.typ ?? "";
  let header = opened.headers.get(typ);
  if (header === undefined) {
    header = Buffer.from(JSON.stringify({ alg, kid: opened.kid, ...(typ ? { typ } : {}) })).toString("base64url");
    opened.headers.set(typ, header);
  }
  const signingInput = `${header}.${Buffer.from(JSON.stringify({ ...claims, iat, exp })).toString("base64url")}`;
  const signature = await signAsync(opened, Buffer.from(signingInput, "ascii"));
  return `${signingInput}.${signature.toString("base64url")}`;
}

/** RS256 is RSASSA-PKCS1-v1_5 with SHA-256; ES256 is ECDSA P-256 with SHA-256, r‖s (RFC 7518 §3.4), not DER. */
function signAsync(opened: OpenedKey, data: Buffer): Promise<Buffer> {
  const key = opened.alg === "ES256" ? { key: opened.privateKey, dsaEncoding: "ieee-p1363" as const } : opened.privateKey;
  return new Promise((resolve, reject) => sign("sha256", data, key, (error, signature) => (error ? reject(error) : resolve(signature))));
}

/**
 * The payload of a JWT signed by one of our published keys. Refuses (JwtVerificationError) any alg
 * but RS256/ES256 (so `none` and HMAC tricks), a kid we do not publish (unknown or retired), a kid
 * used with another alg than its key's, a bad signature, a different `typ` when one is expected,
 * and an expired token unless `allowExpired` (an id_token_hint may be expired: RP-Initiated Logout
 * 1.0 §2). Issuer and audience are the caller's to check.
 */
export async function verifyOwnJwt(token: string, options: { typ?: string; allowExpired?: boolean } = {}): Promise<JWTPayload> {
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new JwtVerificationError("malformed", "The token is not a signed JWT");
  }
  if (token.split(".").length !== 3) throw new JwtVerificationError("malformed", "The token is not a signed JWT (JWS compact serialization)");
  if (!isSigningAlg(header.alg)) throw new JwtVerificationError("alg_not_allowed", `alg ${JSON.stringify(header.alg ?? null)} is not accepted (only ${SIGNING_ALGS.join(", ")})`);
  const key = (await publishedKeys()).find((k) => k.kid === header.kid);
  if (!key) throw new JwtVerificationError("unknown_kid", `kid ${JSON.stringify(header.kid ?? null)} names none of the published keys`);
  if (key.alg !== header.alg) throw new JwtVerificationError("alg_mismatch", `kid ${key.kid} is a ${key.alg} key, not ${header.alg}`);
  try {
    const { payload } = await jwtVerify(token, await publicKeyOf(key), {
      algorithms: [key.alg],
      currentDate: clockNow(),
      ...(options.typ ? { typ: options.typ } : {}),
      // An accepted expired token is still checked for everything else.
      ...(options.allowExpired ? { clockTolerance: Number.MAX_SAFE_INTEGER } : {}),
    });
    return payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new JwtVerificationError("expired", "The token expired");
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) throw new JwtVerificationError("invalid_signature", "The token's signature does not verify");
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      throw error.claim === "typ" ? new JwtVerificationError("wrong_typ", `The token's typ must be ${options.typ}`) : new JwtVerificationError("invalid_claims", error.message);
    }
    if (error instanceof joseErrors.JOSEError) throw new JwtVerificationError("malformed", error.message);
    throw error;
  }
}

/** The published public keys (jwks_uri): public parameters only, with use, alg and kid. */
export async function publicJwks(): Promise<{ keys: JWK[] }> {
  const now = clockNow();
  let keys = await publishedKeys();
  if (SIGNING_ALGS.some((alg) => !activeKey(keys, alg, now))) {
    await ensureSigningKeys(now);
    keys = await publishedKeys();
  }
  return { keys: keys.map(publicPart) };
}

function publicPart(key: SigningKey): JWK {
  const { kty, n, e, crv, x, y } = key.publicJwk;
  const params = kty === "RSA" ? { kty, n, e } : { kty, crv, x, y };
  return { ...params, kid: key.kid, use: "sig", alg: key.alg };
}
