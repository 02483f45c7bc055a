// The results as the terminal table and as the markdown table of docs/benchmarks.md.
import { fairnessLine } from "./fairness";
import type { gitInfo, machineInfo } from "./machine";
import type { BackendReport, WorkloadReport } from "./measure";
import type { PeerReport } from "./peer-measure";
import type { RenewalsReport } from "./renewals-measure";

/** The renewals scenario in one line (terminal and markdown). */
export function renewalsLine(r: RenewalsReport): string {
  if (r.status === "unavailable") return `Renewals: unavailable: ${r.reason}`;
  const runs = r.runs.map((x) => `${x.count} due in ${fmt(x.seconds, 1)} s (${fmt(x.itemsPerSec, 1)}/s, ${fmt(x.cpuMsPerItem)} ms CPU each)`).join(", then ");
  const met = (m: boolean | null) => (m === null ? "" : m ? " met" : " missed");
  return (
    `Renewals (test provider, one run per size): ${runs}; per item ×floor-write ${r.ratioToFloorWrite === null ? "– (floor-write not measured)" : fmt(r.ratioToFloorWrite)} (target ≥ ${r.targets.floorWrite}${met(r.floorWriteMet)}); ` +
    `flat cost ${fmt(r.flatCostRatio ?? undefined)} (rate at ${r.runs[1]?.count ?? "–"} ÷ at ${r.runs[0]?.count ?? "–"}; target ≥ ${r.targets.flatCost}${met(r.flatCostMet)}; CPU per item ${fmt(r.flatCpuRatio ?? undefined)})` +
    (r.status === "errors" ? `; errors: ${r.reason}` : "")
  );
}

const fmt = (n: number | undefined, digits = 2) => (n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits));

/** "0.74 (0.31 vs floor-write)"-style target cell pieces. */
function targetText(w: WorkloadReport, md: boolean): string {
  if (w.target === null) return md ? "–" : "";
  const against = w.targetAgainst === "baseline" ? "" : ` vs ${w.targetAgainst}`;
  const met = w.targetMet === true ? " met" : w.targetMet === false ? (md ? " **missed**" : " MISSED") : md ? "" : " ?";
  return `≥ ${w.target}${against}${met}`;
}

/** The throughput ×floor cell; for a target against another workload, the comparison too (and, head to head, its CPU per request). */
function floorCell(w: WorkloadReport): string {
  const parts = [w.isFloor ? "floor" : fmt(w.floorRatios?.throughput)];
  const cpu = w.comparison && "cpuPerRequest" in w.comparison ? `, CPU ×${fmt(w.comparison.cpuPerRequest)}` : "";
  if (w.comparison) parts.push(`(${fmt(w.comparison.throughput)} vs ${w.targetAgainst}${cpu})`);
  return parts.join(" ");
}

/** The head-to-head comparisons of a backend, one line each: both arms, the ratios, every pair's throughput. */
export function headToHeadLines(b: BackendReport, md: boolean): string[] {
  const lines: string[] = [];
  for (const w of b.workloads) {
    const c = w.comparison;
    if (!w.headToHead || !c || !("cpuPerRequest" in c)) continue;
    const { against: a, workload: x } = w.headToHead;
    const db = c.dbCpuPerRequest === null ? "" : `; database ${fmt(x.dbCpuMsPerRequest ?? undefined)} / ${fmt(a.dbCpuMsPerRequest ?? undefined)} ms (×${fmt(c.dbCpuPerRequest)})`;
    lines.push(
      `${md ? "- " : "  "}${w.id} vs ${w.targetAgainst}, ${c.pairThroughput.length} pairs: throughput ×${fmt(c.throughput)} (pairs ${c.pairThroughput.map((r) => fmt(r)).join(", ")}; ` +
        `${fmt(x.requestsPerSec, 0)} / ${fmt(a.requestsPerSec, 0)} req/s), p50 ×${fmt(c.p50)}, p99 ×${fmt(c.p99)}; CPU per request ${fmt(x.cpuMsPerRequest)} / ${fmt(a.cpuMsPerRequest)} ms (×${fmt(c.cpuPerRequest)})${db}; ${targetText(w, md)}`,
    );
  }
  if (!lines.length) return [];
  const title = "head to head (alternating, each segment against the other arm's either side; this ÷ other: throughput higher is better, latency and CPU lower is better):";
  return md ? ["", title.replace(/^h/, "H"), "", ...lines] : [title, ...lines];
}

/** Ours against node-oidc-provider, as a markdown table (the terminal prints the same). */
export function peerTable(peer: PeerReport, md: boolean): string[] {
  if (peer.status === "unavailable") return ["", `${md ? "Peer" : "peer"}: unavailable: ${peer.reason}`];
  const lines = [
    "",
    `${md ? "Ours vs the peer" : "ours vs peer"} (${peer.server}, ${peer.adapter} adapter; ${peer.method}). Ratios ours ÷ peer: throughput higher is better, latency and CPU lower is better.`,
    "",
    "| row | ours | peer | req/s ours / peer | ×peer | target | p50 ms ours / peer (×) | p99 ms ours / peer (×) | CPU ms/req ours / peer (×) | DB CPU ms/req ours / peer | status |",
    "|---|---|---|---:|---:|---|---:|---:|---:|---:|---|",
  ];
  for (const r of peer.rows) {
    const x = r.ratios;
    const tgt = r.target === null ? "–" : `≥ ${r.target}${r.targetMet === true ? " met" : r.targetMet === false ? (md ? " **missed**" : " MISSED") : ""}`;
    const db = r.ours.dbCpuMsPerRequest != null && r.peer.dbCpuMsPerRequest != null ? `${fmt(r.ours.dbCpuMsPerRequest)} / ${fmt(r.peer.dbCpuMsPerRequest)}` : "–";
    const status = r.status === "ok" ? "ok" : `${r.status}: ${r.reason}`;
    lines.push(
      x
        ? `| ${r.id} | ${r.ours.workload} | ${r.peer.endpoint} | ${fmt(r.ours.requestsPerSec, 0)} / ${fmt(r.peer.requestsPerSec, 0)} | ${fmt(x.throughput)} | ${tgt} | ${fmt(r.ours.p50Ms)} / ${fmt(r.peer.p50Ms)} (${fmt(x.p50)}) | ${fmt(r.ours.p99Ms)} / ${fmt(r.peer.p99Ms)} (${fmt(x.p99)}) | ${fmt(r.ours.cpuMsPerRequest)} / ${fmt(r.peer.cpuMsPerRequest)} (${fmt(x.cpuPerRequest)}) | ${db} | ${status} |`
        : `| ${r.id} | ${r.ours.workload} | ${r.peer.endpoint} | – | – | ${tgt} | – | – | – | – | ${status} |`,
    );
  }
  return lines;
}

export function table(reports: BackendReport[]): string {
  const lines: string[] = [];
  for (const b of reports) {
    lines.push(
      `\n${b.name} (database ${b.database}, limiter store ${b.limiterStore}); baseline ${fmt(b.baseline.requestsPerSec, 0)} req/s, p50 ${fmt(b.baseline.p50Ms)} ms, p99 ${fmt(b.baseline.p99Ms)} ms; server peak RSS ${fmt(b.peakRssMb, 0)} MB${phasePeaksText(b)}`,
      "×base: ratio to the bare route; ×floor: ratio to the workload's floor (floor-write for writes, floor-read for reads). Throughput: higher is better; latency: lower is better.",
    );
    const header = ["workload", "req/s", "×base", "×floor", "target", "p50 ms", "×base", "×floor", "p99 ms", "×base", "×floor", "RSS MB", "status"];
    const rows: string[][] = [];
    for (const w of b.workloads) {
      if (w.status === "unavailable") {
        rows.push([w.id, "", "", "", targetText(w, false), "", "", "", "", "", "", "", `unavailable: ${w.reason}`]);
        continue;
      }
      const m = w.measurement!;
      const r = w.ratios!;
      const f = w.floorRatios;
      rows.push([
        w.isFloor ? `${w.id} (floor)` : w.floor ? `${w.id} [${w.floor.replace("floor-", "")}]` : w.id,
        fmt(m.requestsPerSec, 0),
        fmt(r.throughput),
        floorCell(w),
        targetText(w, false),
        fmt(m.p50Ms),
        fmt(r.p50),
        w.isFloor ? "" : fmt(f?.p50),
        fmt(m.p99Ms),
        fmt(r.p99),
        w.isFloor ? "" : fmt(f?.p99),
        fmt(w.peakRssMb, 0),
        w.status === "ok" ? "ok" : `errors: ${w.reason}`,
      ]);
    }
    const last = header.length - 1;
    const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => !r[last]!.startsWith("unavailable") || i === 0).map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === last ? c : i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
    lines.push(line(header));
    for (const r of rows) lines.push(line(r));
    lines.push(...headToHeadLines(b, false));
    if (b.fairness) lines.push(fairnessLine(b.fairness));
    if (b.peer) lines.push(...peerTable(b.peer, false));
    if (b.renewals) lines.push(renewalsLine(b.renewals));
    const rt = b.redisRoundTrips;
    if (rt && "unavailable" in rt) lines.push(`redis round trips per operation: unavailable: ${rt.unavailable}`);
    else if (rt) {
      lines.push(
        `redis commands per Admin operation (goal ≤ ${rt.goal}): enforced ${rt.enforced.commandsPerOperation} ${JSON.stringify(rt.enforced.byCommand)}, counted only ${rt.counted.commandsPerOperation} ${JSON.stringify(rt.counted.byCommand)} ${rt.met ? "met" : "MISSED"}`,
      );
    }
  }
  return lines.join("\n");
}

/** The same table in markdown, for docs/benchmarks.md. */
export function markdown(result: { finishedAt: string; mode: string; machine: ReturnType<typeof machineInfo>; git: ReturnType<typeof gitInfo>; conditions: { otherProcessesCpuPercent: number; underLoad: boolean } }, reports: BackendReport[]): string {
  const m = result.machine;
  const out = [
    `Recorded ${result.finishedAt.replace("T", " ").slice(0, 16)} UTC, ${result.mode} run, commit ${result.git.commit.slice(0, 10)}${result.git.dirty ? " (uncommitted changes)" : ""}; ${m.cores} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. Other processes used ${result.conditions.otherProcessesCpuPercent}% of the CPU while measuring${result.conditions.underLoad ? " (taken under load)" : ""}.`,
  ];
  for (const b of reports) {
    out.push(
      "",
      `**${b.name}** (database ${b.database}, limiter store ${b.limiterStore}): baseline ${fmt(b.baseline.requestsPerSec, 0)} req/s, p50 ${fmt(b.baseline.p50Ms)} ms, p99 ${fmt(b.baseline.p99Ms)} ms; server peak RSS ${fmt(b.peakRssMb, 0)} MB${phasePeaksText(b)}.`,
      "",
      "| Workload | Floor | req/s | ×bare | ×floor | Target | p50 ms (×bare, ×floor) | p99 ms (×bare, ×floor) | Peak RSS MB |",
      "|---|---|---:|---:|---:|---|---:|---:|---:|",
    );
    for (const w of b.workloads) {
      const floor = w.isFloor ? "(floor)" : (w.floor ?? "–");
      if (w.status === "unavailable") {
        out.push(`| ${w.id} | ${floor} | – | unavailable: ${w.reason} | – | ${targetText(w, true)} | – | – | – |`);
        continue;
      }
      const r = w.ratios!;
      const f = w.floorRatios;
      const errs = w.status === "errors" ? ` (errors: ${w.measurement!.failures})` : "";
      const lat = (ms: number, base: number, fl: number | undefined) => `${fmt(ms)} (${fmt(base)}${w.isFloor ? "" : `, ${fmt(fl)}`})`;
      out.push(
        `| ${w.id} | ${floor} | ${fmt(w.measurement!.requestsPerSec, 0)} | ${fmt(r.throughput)}${errs} | ${floorCell(w)} | ${targetText(w, true)} | ${lat(w.measurement!.p50Ms, r.p50, f?.p50)} | ${lat(w.measurement!.p99Ms, r.p99, f?.p99)} | ${fmt(w.peakRssMb, 0)} |`,
      );
    }
    out.push(...headToHeadLines(b, true));
    if (b.fairness) out.push("", fairnessLine(b.fairness).replace(/^fairness/, "Fairness"));
    if (b.peer) out.push(...peerTable(b.peer, true));
    if (b.renewals) out.push("", renewalsLine(b.renewals));
    const rt = b.redisRoundTrips;
    if (rt && "unavailable" in rt) out.push("", `Redis round trips per operation: unavailable: ${rt.unavailable}`);
    else if (rt) {
      out.push(
        "",
        `Redis commands per Admin operation (goal ≤ ${rt.goal}, ${rt.met ? "met" : "**missed**"}): limits enforced ${rt.enforced.commandsPerOperation} (${JSON.stringify(rt.enforced.byCommand)}), counted only ${rt.counted.commandsPerOperation} (${JSON.stringify(rt.counted.byCommand)}).`,
      );
    }
  }
  return out.join("\n") + "\n";
}

/** Where the server's peak was reached: " (workloads 391, head to head 380, …)", or nothing for an older report. */
export function phasePeaksText(b: Pick<BackendReport, "phasePeakRssMb">): string {
  const entries = Object.entries(b.phasePeakRssMb ?? {});
  return entries.length ? ` (${entries.map(([phase, mb]) => `${phase} ${fmt(mb, 0)}`).join(", ")})` : "";
}
