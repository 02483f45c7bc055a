import type { JWK } from "jose";
import { db } from "../db/client";
import { isSigningAlg, type SigningKey } from "./key-store";
import { signingKeyState, type SigningKeyState } from "./signing-key-status";

export interface SigningKeySummary {
  kid: string;
  alg: string;
  createdAt: Date;
  activatesAt: Date;
  status: SigningKeyState;
}

/** Every signing key ever made (retired ones too), oldest first, with its state at `now`. Never the private half. */
export async function listSigningKeys(options: { now: Date }): Promise<SigningKeySummary[]> {
  const rows = await db().oidcSigningKey.findMany({
    orderBy: [{ activatesAt: "asc" }, { createdAt: "asc" }, { kid: "asc" }],
    select: { kid: true, alg: true, publicJwk: true, createdAt: true, activatesAt: true, retiredAt: true },
  });
  const published: SigningKey[] = rows
    .filter((r) => !r.retiredAt && isSigningAlg(r.alg))
    .map((r) => ({ ...r, alg: r.alg as SigningKey["alg"], publicJwk: r.publicJwk as JWK, privateKeyCiphertext: "" }));
  return rows.map((r) => ({
    kid: r.kid,
    alg: r.alg,
    createdAt: r.createdAt,
    activatesAt: r.activatesAt,
    status: signingKeyState(published, { ...r, alg: r.alg as SigningKey["alg"], publicJwk: r.publicJwk as JWK, privateKeyCiphertext: "" }, options.now),
  }));
}
