// Ours against the peer (node-oidc-provider, bench/peer.ts) on one backend: refresh, introspection
// and a bare route, each run alternating peer, ours, peer, … with the same connections, every
// segment's CPU per request read from /proc (the server's process tree and, on a Postgres on this
// machine, its backends), reported as ours/peer ratios (docs/benchmarks.md, "The peer").
import { readFileSync } from "node:fs";
import path from "node:path";
import { runSegment, type LoadSpec } from "./load";
import { checkPeerSetup, peerBareSpec, peerChains, peerIntrospectSpec, peerRefreshSpec, startPeer, authorizationCodeFlow, type PeerServer } from "./peer";
import { PostgresBackends } from "./proc-cpu";
import { alternate, alternatingRatios, peerPairs, sideMeasurement, withCpu, type AlternatingRatios, type Segment, type SideMeasurement } from "./alternating";
import type { Settings } from "./options";

export { sideMeasurement, type Segment, type SideMeasurement };

export type PeerRowId = "refresh" | "introspect" | "bare";

/** Ours ÷ the peer's throughput, per database (issue 30): Postgres at least as fast, embedded at least half. */
export const PEER_TARGETS: Record<PeerRowId, { pglite: number; postgres: number } | null> = {
  refresh: { pglite: 0.5, postgres: 1.0 },
  introspect: { pglite: 0.5, postgres: 1.0 },
  bare: null,
};

/** Which of our workloads each row compares (token-refresh signs an ID token, as the peer's refresh does). */
export const OUR_WORKLOAD: Record<PeerRowId, string> = { refresh: "token-refresh", introspect: "introspect", bare: "baseline" };

export interface PeerRow {
  id: PeerRowId;
  ours: { workload: string; endpoint: string } & Partial<SideMeasurement>;
  peer: { endpoint: string } & Partial<SideMeasurement>;
  /** ours ÷ peer: throughput (higher is better), p50, p99 and CPU per request (lower is better). */
  ratios?: AlternatingRatios;
  target: number | null;
  targetMet?: boolean | null;
  status: "ok" | "errors" | "unavailable";
  reason?: string;
}

export interface PeerReport {
  status: "ok" | "unavailable";
  reason?: string;
  server?: string;
  adapter?: "memory" | "postgres";
  method?: string;
  /** The peer's setup, asserted before measuring. */
  checks?: { chainsRotate: boolean; idTokenOnRefresh: boolean; introspectionActive: boolean; problems: string[] };
  rows: PeerRow[];
}

/** The alternating sequence peer₀, ours₀, peer₁, …, peerₙ: ours against the peer segments either side (bench/alternating.ts). */
export const peerRatios = (peer: Segment[], ours: Segment[]): AlternatingRatios => alternatingRatios(peer, ours);

export function peerVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(process.cwd(), "node_modules", "oidc-provider", "package.json"), "utf8")) as { version: string };
  return `node-oidc-provider ${pkg.version}`;
}

export interface PeerRunOptions {
  /** Which database the backend runs (the targets differ). */
  database: "pglite" | "postgres";
  /** The backend's scratch Postgres database (the peer keeps its table there), or none: the memory adapter. */
  databaseUrl?: string;
  ours: { origin: string; pid: number };
  /** Our spec for a row's workload, or why it cannot run. */
  ourSpec: (id: PeerRowId) => Promise<LoadSpec | { unavailable: string }>;
  port: number;
  settings: Settings;
  quick: boolean;
  log: (line: string) => void;
}

export async function measureAgainstPeer(o: PeerRunOptions): Promise<PeerReport> {
  let peer: PeerServer;
  try {
    peer = await startPeer({ port: o.port, databaseUrl: o.databaseUrl });
  } catch (err) {
    return { status: "unavailable", reason: (err as Error).message.slice(0, 500), rows: [] };
  }
  const backends = o.databaseUrl ? await PostgresBackends.open(o.databaseUrl).catch(() => null) : null;
  try {
    const checks = await checkPeerSetup(peer.origin);
    o.log(`peer (${peer.adapter} adapter) checks: ${checks.problems.length ? checks.problems.join("; ") : "chains rotate, ID token on refresh, introspection active"}`);
    if (checks.problems.length) return { status: "unavailable", reason: `the peer's setup failed its checks: ${checks.problems.join("; ")}`, checks, rows: [] };
    const pairs = peerPairs(o.quick);
    const { connections, segmentSeconds, warmupSeconds } = o.settings;

    // The database's backends of each side, told apart by the peer pool's application_name.
    const segment = (origin: string, pid: number, spec: LoadSpec, seconds: number, peerSide: boolean): Promise<Segment> =>
      withCpu({ pid, dbPids: backends ? () => backends.pids("bench-peer", !peerSide) : null }, () => runSegment({ origin, spec, connections, durationSec: seconds }));

    const rows: PeerRow[] = [];
    // A chain per in-flight request, and each segment's end may strand one per connection.
    const chains = await peerChains(peer.origin, connections * (pairs + 3) + 4);
    for (const id of ["refresh", "introspect", "bare"] as const) {
      const target = PEER_TARGETS[id]?.[o.database] ?? null;
      const row: PeerRow = {
        id,
        ours: { workload: OUR_WORKLOAD[id], endpoint: id === "refresh" ? "POST /api/oauth/token refresh_token" : id === "introspect" ? "POST /api/oauth/introspect" : "GET /api/bench/baseline" },
        peer: { endpoint: id === "refresh" ? "POST /token refresh_token" : id === "introspect" ? "POST /token/introspection" : "GET /bare (node:http)" },
        target,
        status: "unavailable",
      };
      rows.push(row);
      const ours = await o.ourSpec(id);
      if ("unavailable" in ours) {
        row.reason = `ours: ${ours.unavailable}`;
        continue;
      }
      // The memory adapter is an LRU of 1,000 entries: a token left unused while refreshes run may
      // be evicted, so introspection gets a fresh access token right before it is measured.
      const theirs = id === "refresh" ? peerRefreshSpec(chains) : id === "introspect" ? peerIntrospectSpec((await authorizationCodeFlow(peer.origin)).access_token) : peerBareSpec();
      o.log(`${id}: peer and ours alternating, ${pairs} pair${pairs > 1 ? "s" : ""}`);
      if (warmupSeconds > 0) {
        await segment(o.ours.origin, o.ours.pid, ours, warmupSeconds, false);
        await segment(peer.origin, peer.pid, theirs, warmupSeconds, true);
      }
      const { a: peerSegments, b: ourSegments } = await alternate({
        pairs,
        a: () => segment(peer.origin, peer.pid, theirs, segmentSeconds, true),
        b: () => segment(o.ours.origin, o.ours.pid, ours, segmentSeconds, false),
      });
      Object.assign(row.ours, sideMeasurement(ourSegments));
      Object.assign(row.peer, sideMeasurement(peerSegments));
      row.ratios = peerRatios(peerSegments, ourSegments);
      const failures = (row.ours.failures ?? 0) + (row.peer.failures ?? 0);
      row.status = failures > 0 ? "errors" : "ok";
      if (failures > 0) {
        const sample = [...ourSegments, ...peerSegments].find((s) => s.badSample)?.badSample;
        row.reason = `ours ${row.ours.failures} and peer ${row.peer.failures} failed responses${sample ? `; e.g. ${sample}` : ""}`;
      }
      row.targetMet = target === null ? null : row.ratios.throughput >= target;
    }
    return {
      status: "ok",
      server: peerVersion(),
      adapter: peer.adapter,
      method: `alternating peer, ours × ${pairs}, peer; ${connections} connections; each ours segment against the mean of the peer segments either side, pairs by geometric mean; CPU from /proc${backends ? " (Postgres backends split by application_name)" : ""}`,
      checks,
      rows,
    };
  } finally {
    await backends?.close().catch(() => undefined);
    await peer.stop();
  }
}
