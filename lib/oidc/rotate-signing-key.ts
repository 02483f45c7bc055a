import { db } from "../db/client";
import { forgetSigningKeys, KEY_PUBLISH_AHEAD_SECONDS, newSigningKey, SIGNING_ALGS, type SigningAlg } from "./key-store";

/**
 * Adds a new key for each alg (or the one given). It is published at once and signs from
 * KEY_PUBLISH_AHEAD_SECONDS later, so relying parties that cache jwks_uri know it before they see
 * a token signed with it; the key it replaces keeps verifying until retired. `immediately` (a
 * compromised key) makes it sign at once; then retire the old key with `force`.
 */
export async function rotateSigningKey(options: { now: Date; alg?: SigningAlg; immediately?: boolean }): Promise<{ kid: string; alg: SigningAlg; activatesAt: Date }[]> {
  const { now } = options;
  const activatesAt = options.immediately ? now : new Date(now.getTime() + KEY_PUBLISH_AHEAD_SECONDS * 1000);
  const made = await Promise.all((options.alg ? [options.alg] : [...SIGNING_ALGS]).map((alg) => newSigningKey({ alg, now, activatesAt })));
  await db().oidcSigningKey.createMany({ data: made });
  forgetSigningKeys();
  return made.map(({ kid, alg }) => ({ kid, alg, activatesAt }));
}
