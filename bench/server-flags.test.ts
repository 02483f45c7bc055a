import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from "./server";

// The bench measures the server as the documented start commands run it.
describe("bench server flags", () => {
  it("match the environment and V8 flags of npm start and npm run serve", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    const env = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`);
    for (const name of ["start", "serve"]) {
      expect(scripts[name], name).toContain([...env, "node", ...SERVER_NODE_FLAGS, SERVER_ENTRY].join(" "));
    }
  });
});

// What MALLOC_MMAP_THRESHOLD_ is for (docs/benchmarks.md, "Memory"): 32 KB blocks
// (V8's compiler zone segments) freed between longer-lived small blocks go back to the kernel.
// Here 32 KB Buffers stand in for the segments (Node takes their memory from malloc too).
const glibc = process.platform === "linux" && Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
const FRAGMENT = `
const rss = () => process.memoryUsage().rss / 1048576;
const keep = [];
let big = [];
for (let i = 0; i < 6000; i++) {
  big.push(Buffer.allocUnsafeSlow(32768));
  keep.push(Buffer.allocUnsafeSlow(1024));
}
for (const b of big) b.fill(1);
const full = rss();
big = [];
for (let i = 0; i < 4; i++) globalThis.gc();
setTimeout(() => {
  globalThis.gc();
  console.log(JSON.stringify({ full, after: rss(), kept: keep.length }));
}, 200);
`;
function freedMb(env: Record<string, string>): number {
  const base = { ...process.env };
  delete base.MALLOC_ARENA_MAX;
  delete base.MALLOC_MMAP_THRESHOLD_;
  const r = spawnSync(process.execPath, ["--expose-gc", "-e", FRAGMENT], { env: { ...base, ...env }, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  const { full, after } = JSON.parse(r.stdout) as { full: number; after: number };
  return full - after;
}

describe.skipIf(!glibc)("server malloc settings (glibc)", () => {
  it("return freed 32 KB blocks to the kernel, which glibc's defaults keep (about 190 MB here)", () => {
    expect(freedMb(SERVER_ENV)).toBeGreaterThan(120);
    expect(freedMb({ MALLOC_ARENA_MAX: SERVER_ENV.MALLOC_ARENA_MAX! })).toBeLessThan(60);
  });
});
