import { createHash } from "node:crypto";
import { safeEqual } from "../credentials/secret";

// RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~].
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
// A base64url SHA-256 digest is always 43 characters.
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export const isValidCodeVerifier = (v: string) => VERIFIER.test(v);
export const isValidCodeChallenge = (c: string) => CHALLENGE.test(c);

export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function verifyPkce(verifier: string, challenge: string): boolean {
  return isValidCodeVerifier(verifier) && safeEqual(s256(verifier), challenge);
}
