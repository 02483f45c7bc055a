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
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  topFunctions: { name: string; where: string; selfMs: number; percent: number }[];
  byArea: { area: string; selfMs: number; percent: number }[];
}

function area(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith("node:")) return "node core";
  if (url.includes("/.next/server/chunks/") || url.includes("/.next/server/app/")) return "app bundle (.next/server)";
  return url.replace(/^file:\/\//, "").split("/").slice(-2).join("/");
}

export function summariseProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
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
  return {
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
