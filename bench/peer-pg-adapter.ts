// node-oidc-provider's storage on Postgres for the bench's peer (bench/peer-server.ts): the small
// adapter a team would write (its interface is the memory adapter's: upsert, find, findByUid,
// findByUserCode, consume, destroy, revokeByGrantId), one table keyed by (id, model), every
// statement named so each pooled connection parses it once, as our raw driver's hot statements do.
import type pg from "pg";

export const PEER_TABLE = "bench_oidc_payload";

export const PEER_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ${PEER_TABLE} (
     id text NOT NULL, model text NOT NULL, payload jsonb NOT NULL,
     grant_id text, user_code text, uid text, expires_at timestamptz, consumed_at timestamptz,
     PRIMARY KEY (id, model))`,
  `CREATE INDEX IF NOT EXISTS ${PEER_TABLE}_grant_id ON ${PEER_TABLE} (grant_id)`,
  `CREATE INDEX IF NOT EXISTS ${PEER_TABLE}_uid ON ${PEER_TABLE} (uid)`,
  `CREATE INDEX IF NOT EXISTS ${PEER_TABLE}_user_code ON ${PEER_TABLE} (user_code)`,
];

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string };

const UPSERT = `INSERT INTO ${PEER_TABLE} (id, model, payload, grant_id, user_code, uid, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
  ON CONFLICT (id, model) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
    user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`;
const LIVE = `(expires_at IS NULL OR expires_at > now())`;
const SELECT = `SELECT payload, extract(epoch FROM consumed_at)::int AS consumed FROM ${PEER_TABLE}`;

/** The adapter class node-oidc-provider instantiates once per model (`new Adapter("RefreshToken")`). */
export function pgAdapter(pool: pg.Pool) {
  const one = async (name: string, text: string, values: unknown[]): Promise<Payload | undefined> => {
    const { rows } = await pool.query<{ payload: Payload; consumed: number | null }>({ name, text, values });
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed === null ? row.payload : { ...row.payload, consumed: row.consumed };
  };
  return class PgAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const values = [id, this.model, payload, payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? null];
      await pool.query({ name: "peer-upsert", text: UPSERT, values });
    }

    find(id: string): Promise<Payload | undefined> {
      return one("peer-find", `${SELECT} WHERE id = $1 AND model = $2 AND ${LIVE}`, [id, this.model]);
    }

    findByUid(uid: string): Promise<Payload | undefined> {
      return one("peer-find-uid", `${SELECT} WHERE uid = $1 AND model = $2 AND ${LIVE}`, [uid, this.model]);
    }

    findByUserCode(userCode: string): Promise<Payload | undefined> {
      return one("peer-find-user-code", `${SELECT} WHERE user_code = $1 AND model = $2 AND ${LIVE}`, [userCode, this.model]);
    }

    async consume(id: string): Promise<void> {
      await pool.query({ name: "peer-consume", text: `UPDATE ${PEER_TABLE} SET consumed_at = now() WHERE id = $1 AND model = $2`, values: [id, this.model] });
    }

    async destroy(id: string): Promise<void> {
      await pool.query({ name: "peer-destroy", text: `DELETE FROM ${PEER_TABLE} WHERE id = $1 AND model = $2`, values: [id, this.model] });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await pool.query({ name: "peer-revoke-grant", text: `DELETE FROM ${PEER_TABLE} WHERE grant_id = $1`, values: [grantId] });
    }
  };
}
