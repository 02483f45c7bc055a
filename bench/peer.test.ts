import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { runSegment } from "./load";
import { authorizationCodeFlow, checkPeerSetup, peerBareSpec, peerChains, peerIntrospectSpec, peerRefreshSpec, startPeer, type PeerServer } from "./peer";
import { freePort } from "./server";
import { PEER_TABLE } from "./peer-pg-adapter";

// The peer as the bench starts it (its own process, node-oidc-provider 9): the code flow the bench
// drives, the setup checks, and the load specs rotating chains without a failed response.
async function exercise(peer: PeerServer) {
  const checks = await checkPeerSetup(peer.origin);
  expect(checks).toEqual({ chainsRotate: true, idTokenOnRefresh: true, introspectionActive: true, problems: [] });

  const chains = await peerChains(peer.origin, 6);
  expect(new Set(chains.map((c) => c.refresh_token)).size).toBe(6);
  const refresh = await runSegment({ origin: peer.origin, spec: peerRefreshSpec(chains), connections: 2, durationSec: 1 });
  expect(refresh.good).toBeGreaterThan(5);
  expect(refresh.bad + refresh.non2xx + refresh.errors).toBe(0);

  const { access_token } = await authorizationCodeFlow(peer.origin);
  const introspect = await runSegment({ origin: peer.origin, spec: peerIntrospectSpec(access_token), connections: 2, durationSec: 1 });
  expect(introspect.good).toBeGreaterThan(5);
  expect(introspect.bad + introspect.non2xx + introspect.errors).toBe(0);
  // An unknown token is answered 200 { active: false }, which the spec does not count as good.
  const unknown = await runSegment({ origin: peer.origin, spec: peerIntrospectSpec("not-a-token"), connections: 1, durationSec: 1 });
  expect(unknown.good).toBe(0);
  expect(unknown.bad).toBeGreaterThan(0);

  const bare = await runSegment({ origin: peer.origin, spec: peerBareSpec(), connections: 2, durationSec: 1 });
  expect(bare.bad + bare.non2xx + bare.errors).toBe(0);
}

const started: PeerServer[] = [];
afterAll(async () => {
  for (const p of started) await p.stop();
});

describe("the peer (node-oidc-provider) on its memory adapter", () => {
  it("issues rotating refresh chains through the code flow with PKCE, introspects and serves the bare route", async () => {
    const peer = await startPeer({ port: await freePort() });
    started.push(peer);
    expect(peer.adapter).toBe("memory");
    await exercise(peer);
  }, 60_000);
});

// On Postgres with the bench's own adapter (bench/peer-pg-adapter.ts), in a scratch database.
const url = process.env.TEST_DATABASE_URL;
describe.runIf(!!url)("the peer on the bench's Postgres adapter", () => {
  it("does the same with every payload in its own table", async () => {
    const name = `bench_peer_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const scratch = new URL(url!);
    scratch.pathname = `/${name}`;
    try {
      const peer = await startPeer({ port: await freePort(), databaseUrl: scratch.toString() });
      started.push(peer);
      expect(peer.adapter).toBe("postgres");
      await exercise(peer);
      const c = new pg.Client({ connectionString: scratch.toString() });
      await c.connect();
      const { rows } = await c.query<{ model: string; n: number }>(`SELECT model, count(*)::int AS n FROM ${PEER_TABLE} GROUP BY model`);
      await c.end();
      const byModel = Object.fromEntries(rows.map((r) => [r.model, r.n]));
      expect(byModel.RefreshToken).toBeGreaterThan(6);
      expect(byModel.Grant).toBeGreaterThan(6);
      await peer.stop();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 90_000);
});
