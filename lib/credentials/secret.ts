import { createHash, randomFillSync, timingSafeEqual } from "node:crypto";

/** Hash for high-entropy secrets (API keys, OAuth tokens, codes): a fast digest is enough at 256 bits of entropy. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

// Random bytes are drawn from the CSPRNG a pool at a time, as crypto.randomUUID does: every call
// into it builds a crypto job object, and two calls per refresh (its two new tokens) were 5% of the
// server's CPU on an embedded refresh (docs/benchmarks.md, "The embedded database"). Each byte is
// handed out once and zeroed as it is, so the pool holds only secrets not yet issued.
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

/** `bytes` random bytes from the CSPRNG, base64url-encoded (a token, a secret, a code). */
export function randomToken(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > POOL.length) throw new RangeError(`randomToken takes 1 to ${POOL.length} bytes`);
  if (poolOffset + bytes > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const token = POOL.toString("base64url", poolOffset, poolOffset + bytes);
  POOL.fill(0, poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return token;
}

/** Constant-time comparison of two strings of possibly different length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
