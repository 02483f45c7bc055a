// Summarises a V8 .cpuprofile (from `node --cpu-prof`): where the samples landed, by function
// (self time) and by package (so "Prisma", "PGlite", "next", "react-dom" and app code stand out).
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Whether only the samples taken while the load ran were counted (start-up left out). */
  window: "load" | "whole process";
  totalMs: number;
  topFunctions: { name: string; where: string; selfMs: number; percent: number }[];
  byArea: { area: string; selfMs: number; percent: number }[];
  /** The same areas grouped: where a request's CPU goes at a glance. */
  groups: Record<"database" | "nextjs" | "app" | "nodeCore" | "garbageCollector" | "idle" | "other", number>;
}

const DATABASE_PACKAGES = ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/client", "@prisma/client-runtime-utils", "@prisma/adapter-pg", "pg", "pg-protocol", "pg-pool", "postgres-interval", "postgres-array", "postgres-date", "postgres-bytea", "pg-types"];

function group(area: string): keyof ProfileSummary["groups"] {
  if (area.startsWith("wasm/") || DATABASE_PACKAGES.includes(area)) return "database";
  if (area === "next" || area.startsWith("@next/")) return "nextjs";
  if (area.startsWith("app bundle")) return "app";
  if (area === "node core" || area === "(native)") return "nodeCore";
  if (area === "(garbage collector)") return "garbageCollector";
  if (area === "(idle)") return "idle";
  return "other";
}

function area(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith("node:")) return "node core";
  if (url.includes("/.next/server/chunks/") || url.includes("/.next/server/app/")) return "app bundle (.next/server)";
  return url.replace(/^file:\/\//, "").split("/").slice(-2).join("/");
}

/**
 * `loadWindowUs`: the load's start and end on CLOCK_MONOTONIC in microseconds (process.hrtime in
 * the bench; V8's profile timestamps use the same clock on Linux), so the server's start-up and
 * shutdown are left out. Falls back to the whole profile when no sample falls inside.
 */
export function summariseProfile(file: string, options: { top?: number; loadWindowUs?: [number, number] } = {}): ProfileSummary {
  const top = options.top ?? 15;
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const tally = (inside: (t: number) => boolean) => {
    const self = new Map<number, number>();
    let total = 0;
    let t = profile.startTime;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      t += delta;
      if (!inside(t)) return;
      total += delta / 1000;
      self.set(id, (self.get(id) ?? 0) + delta / 1000);
    });
    return { self, total };
  };
  const [from, to] = options.loadWindowUs ?? [0, 0];
  let window: ProfileSummary["window"] = "load";
  let { self, total } = options.loadWindowUs ? tally((t) => t >= from && t <= to) : { self: new Map<number, number>(), total: 0 };
  if (total === 0) {
    window = "whole process";
    ({ self, total } = tally(() => true));
  }
  const fn = new Map<string, { name: string; where: string; selfMs: number }>();
  const areas = new Map<string, number>();
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || "(anonymous)";
    const where = url ? `${url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "")}:${lineNumber + 1}` : "";
    const key = `${name}@${where}`;
    const entry = fn.get(key) ?? { name, where, selfMs: 0 };
    entry.selfMs += ms;
    fn.set(key, entry);
    const a = area(url, name);
    areas.set(a, (areas.get(a) ?? 0) + ms);
  }
  const pct = (ms: number) => Math.round((1000 * ms) / (total || 1)) / 10;
  const groups: ProfileSummary["groups"] = { database: 0, nextjs: 0, app: 0, nodeCore: 0, garbageCollector: 0, idle: 0, other: 0 };
  for (const [a, ms] of areas) groups[group(a)] += ms;
  for (const k of Object.keys(groups) as (keyof typeof groups)[]) groups[k] = pct(groups[k]);
  return {
    groups,
    window,
    totalMs: Math.round(total),
    topFunctions: [...fn.values()]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top)
      .map((f) => ({ ...f, selfMs: Math.round(f.selfMs), percent: pct(f.selfMs) })),
    byArea: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([a, ms]) => ({ area: a, selfMs: Math.round(ms), percent: pct(ms) })),
  };
}
