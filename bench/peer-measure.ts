// Ours against the peer (node-oidc-provider, bench/peer.ts) on one backend: refresh, introspection
// and a bare route, each run alternating peer, ours, peer, … with the same connections, every
// segment's CPU per request read from /proc (the server's process tree and, on a Postgres on this
// machine, its backends), reported as ours/peer ratios (docs/benchmarks.md, "The peer").
import { readFileSync } from "node:fs";
import path from "node:path";
import { runSegment, type LoadSpec, type SegmentResult } from "./load";
import { checkPeerSetup, peerBareSpec, peerChains, peerIntrospectSpec, peerRefreshSpec, startPeer, authorizationCodeFlow, type PeerServer } from "./peer";
import { cpuBetween, pidsCpuMs, PostgresBackends, treeCpuMs } from "./proc-cpu";
import { adjacentMean, combineRatios, ratios, round, type Measurement } from "./stats";
import type { Settings } from "./options";

export type PeerRowId = "refresh" | "introspect" | "bare";

/** Ours ÷ the peer's throughput, per database (issue 30): Postgres at least as fast, embedded at least half. */
export const PEER_TARGETS: Record<PeerRowId, { pglite: number; postgres: number } | null> = {
  refresh: { pglite: 0.5, postgres: 1.0 },
  introspect: { pglite: 0.5, postgres: 1.0 },
  bare: null,
};

/** Which of our workloads each row compares (token-refresh signs an ID token, as the peer's refresh does). */
export const OUR_WORKLOAD: Record<PeerRowId, string> = { refresh: "token-refresh", introspect: "introspect", bare: "baseline" };

export interface SideMeasurement extends Measurement {
  requests: number;
  failures: number;
  /** Server process tree CPU ÷ responses. */
  cpuMsPerRequest: number;
  /** The database server's CPU for this side ÷ responses (its Postgres backends); null when not measurable. */
  dbCpuMsPerRequest: number | null;
}

export interface PeerRow {
  id: PeerRowId;
  ours: { workload: string; endpoint: string } & Partial<SideMeasurement>;
  peer: { endpoint: string } & Partial<SideMeasurement>;
  /** ours ÷ peer: throughput (higher is better), p50, p99 and CPU per request (lower is better). */
  ratios?: { throughput: number; p50: number; p99: number; cpuPerRequest: number; dbCpuPerRequest: number | null };
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

export interface Segment extends SegmentResult {
  cpuMs: number;
  dbCpuMs: number | null;
}

const perRequest = (ms: number, s: SegmentResult) => (s.requests > 0 ? ms / s.requests : Number.NaN);
const geo = (xs: number[]) => (xs.length && xs.every((x) => x > 0 && Number.isFinite(x)) ? Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length) : Number.NaN);

/**
 * Ratios of the alternating sequence peer₀, ours₀, peer₁, ours₁, …, peerₙ: each ours segment
 * against the mean of the peer segments either side (slow drift of the machine cancels out), the
 * pairs combined by geometric mean.
 */
export function peerRatios(peer: Segment[], ours: Segment[]): NonNullable<PeerRow["ratios"]> {
  if (peer.length !== ours.length + 1 || ours.length === 0) throw new Error(`expected n ours and n + 1 peer segments, got ${ours.length} and ${peer.length}`);
  const each = ours.map((o, i) => ratios(o, adjacentMean(peer[i], peer[i + 1])!));
  const cpu = ours.map((o, i) => perRequest(o.cpuMs, o) / ((perRequest(peer[i]!.cpuMs, peer[i]!) + perRequest(peer[i + 1]!.cpuMs, peer[i + 1]!)) / 2));
  const db = ours.every((o, i) => o.dbCpuMs !== null && peer[i]!.dbCpuMs !== null && peer[i + 1]!.dbCpuMs !== null)
    ? ours.map((o, i) => perRequest(o.dbCpuMs!, o) / ((perRequest(peer[i]!.dbCpuMs!, peer[i]!) + perRequest(peer[i + 1]!.dbCpuMs!, peer[i + 1]!)) / 2))
    : null;
  const r = combineRatios(each)!;
  return { throughput: round(r.throughput), p50: round(r.p50), p99: round(r.p99), cpuPerRequest: round(geo(cpu)), dbCpuPerRequest: db ? round(geo(db)) : null };
}

/** A side's figures over its segments (means; CPU summed over all of them ÷ all responses). */
export function sideMeasurement(list: Segment[]): SideMeasurement {
  const mean = (f: (s: Segment) => number) => {
    const v = list.map(f).filter(Number.isFinite);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN;
  };
  const requests = list.reduce((s, x) => s + x.requests, 0);
  const failures = list.reduce((s, x) => s + x.bad + x.non2xx + x.errors, 0);
  const db = list.every((s) => s.dbCpuMs !== null) ? list.reduce((s, x) => s + x.dbCpuMs!, 0) : null;
  return {
    requestsPerSec: round(mean((s) => s.requestsPerSec), 1),
    p50Ms: round(mean((s) => s.p50Ms)),
    p99Ms: round(mean((s) => s.p99Ms)),
    requests,
    failures,
    cpuMsPerRequest: round(requests ? list.reduce((s, x) => s + x.cpuMs, 0) / requests : Number.NaN),
    dbCpuMsPerRequest: db === null || !requests ? null : round(db / requests),
  };
}

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
    const pairs = o.quick ? 1 : 3;
    const { connections, segmentSeconds, warmupSeconds } = o.settings;

    const segment = async (origin: string, pid: number, spec: LoadSpec, seconds: number, peerSide: boolean): Promise<Segment> => {
      const dbPids = async () => (backends ? pidsCpuMs(await backends.pids("bench-peer", !peerSide)) : null);
      const db0 = await dbPids();
      const cpu0 = treeCpuMs(pid);
      const r = await runSegment({ origin, spec, connections, durationSec: seconds });
      const cpuMs = treeCpuMs(pid) - cpu0;
      const db1 = await dbPids();
      return { ...r, cpuMs, dbCpuMs: db0 && db1 ? cpuBetween(db0, db1) : null };
    };

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
      const peerSegments: Segment[] = [await segment(peer.origin, peer.pid, theirs, segmentSeconds, true)];
      const ourSegments: Segment[] = [];
      for (let i = 0; i < pairs; i++) {
        ourSegments.push(await segment(o.ours.origin, o.ours.pid, ours, segmentSeconds, false));
        peerSegments.push(await segment(peer.origin, peer.pid, theirs, segmentSeconds, true));
      }
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
