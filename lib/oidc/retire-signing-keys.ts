import type { JWK } from "jose";
import { db } from "../db/client";
import { forgetSigningKeys, isSigningAlg, type SigningKey } from "./key-store";
import { signingKeyState } from "./signing-key-status";

/** A retirement the key's state does not allow (the message says why and what to do). */
export class SigningKeyCommandError extends Error {}

/**
 * Unpublishes keys: without `kid`, every key that stopped signing at least MAX_SIGNED_TOKEN_TTL_SECONDS
 * ago (no token it signed is still valid). With `kid`, that key; one whose tokens may still be live
 * only with `force` (a compromised key: its tokens stop verifying at once). The key that signs now
 * is never retired: rotate first.
 */
export async function retireSigningKeys(options: { now: Date; kid?: string; force?: boolean }): Promise<string[]> {
  const { now, kid, force } = options;
  const rows = await db().oidcSigningKey.findMany({ where: { retiredAt: null } });
  const published: SigningKey[] = rows
    .filter((r) => isSigningAlg(r.alg))
    .map((r) => ({ ...r, alg: r.alg as SigningKey["alg"], publicJwk: r.publicJwk as JWK }));
  let chosen: string[];
  if (kid !== undefined) {
    const key = published.find((k) => k.kid === kid);
    if (!key) throw new SigningKeyCommandError(`no published key has kid ${kid}`);
    const status = signingKeyState(published, key, now);
    if (status.state === "active") throw new SigningKeyCommandError(`${kid} signs ${key.alg} tokens now: rotate first (rotate --now for a compromised key)`);
    if (status.state === "previous" && status.retirableFrom > now && !force) {
      throw new SigningKeyCommandError(`tokens signed by ${kid} may be valid until ${status.retirableFrom.toISOString()}: wait, or --force (they stop verifying at once)`);
    }
    if (status.state === "next" && !force) throw new SigningKeyCommandError(`${kid} has not signed yet (it signs from ${status.signsFrom.toISOString()}): --force to withdraw it`);
    chosen = [kid];
  } else {
    chosen = published.filter((k) => {
      const s = signingKeyState(published, k, now);
      return s.state === "previous" && s.retirableFrom <= now;
    }).map((k) => k.kid);
  }
  if (chosen.length) await db().oidcSigningKey.updateMany({ where: { kid: { in: chosen }, retiredAt: null }, data: { retiredAt: now } });
  forgetSigningKeys();
  return chosen;
}
