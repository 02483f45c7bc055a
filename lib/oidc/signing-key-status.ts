import { activeKey, MAX_SIGNED_TOKEN_TTL_SECONDS, supersededAt, type SigningKey } from "./key-store";

export type SigningKeyState =
  /** Published, not signing yet (activatesAt ahead). */
  | { state: "next"; signsFrom: Date }
  /** Signing its alg's tokens now. */
  | { state: "active" }
  /** Stopped signing at `since`; still published so its tokens verify. Safe to retire from `retirableFrom`. */
  | { state: "previous"; since: Date; retirableFrom: Date }
  | { state: "retired"; at: Date };

/** Where a key is in its life at `now`, among the published keys of the deployment. */
export function signingKeyState(published: readonly SigningKey[], key: SigningKey & { retiredAt?: Date | null }, now: Date): SigningKeyState {
  if (key.retiredAt) return { state: "retired", at: key.retiredAt };
  if (key.activatesAt > now) return { state: "next", signsFrom: key.activatesAt };
  if (activeKey(published, key.alg, now)?.kid === key.kid) return { state: "active" };
  const since = supersededAt(published, key, now) ?? now;
  return { state: "previous", since, retirableFrom: new Date(since.getTime() + MAX_SIGNED_TOKEN_TTL_SECONDS * 1000) };
}
