// The production build validates the deployment's environment (next.config.mjs), so a bad
// deployment fails its build with one line instead of its first request. Run in a real child
// process: the check ends the process, as it does inside `next build`.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

function loadConfig(phase: string, env: Record<string, string>) {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "production" };
  const script = `import("./next.config.mjs").then(async (m) => { await m.default(${JSON.stringify(phase)}); console.log("config ok"); })`;
  const r = spawnSync(tsx, ["-e", script], { cwd: root, env: { ...base, ...env }, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("next.config.mjs: environment validated at build time", () => {
  it("a Vercel build without DATABASE_URL fails with one line naming the variable", () => {
    const r = loadConfig("phase-production-build", { VERCEL: "1" });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^schoolhouse: invalid configuration for this build: .*DATABASE_URL/);
    expect(r.stdout).not.toContain("config ok");
  }, 60_000);

  it("a wrong value fails the build too", () => {
    const r = loadConfig("phase-production-build", { RATE_LIMIT_STORE: "carrier-pigeon" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^schoolhouse: invalid configuration for this build: RATE_LIMIT_STORE/);
  }, 60_000);

  it("a valid environment builds; SKIP_ENV_VALIDATION and other phases do not check", () => {
    expect(loadConfig("phase-production-build", {}).stdout).toContain("config ok");
    expect(loadConfig("phase-production-build", { VERCEL: "1", SKIP_ENV_VALIDATION: "1" }).stdout).toContain("config ok");
    expect(loadConfig("phase-production-server", { VERCEL: "1" }).stdout).toContain("config ok");
  }, 120_000);
});
