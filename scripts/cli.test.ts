// The operator commands beside a running server on the embedded database (issue 29, item 8): PGlite
// allows one process, so while `npm start` holds the directory a command says in one line what to
// do (never a stack trace), and `--help` works without opening the database at all.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "@/tests/helpers/run-script";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;
let server: ChildProcess;
let serverPid: number;

beforeAll(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), "cli-beside-")), "pglite");
  // Stands in for `npm start`: a process that opened the directory and holds it.
  server = spawn(process.execPath, ["--import", "tsx", "tests/helpers/pglite-holder.ts", dir, "x"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  for await (const chunk of server.stdout!) {
    out += String(chunk);
    const m = /ready (\d+)/.exec(out);
    if (m) {
      serverPid = Number(m[1]);
      break;
    }
  }
}, 120_000);
afterAll(async () => {
  server.kill("SIGKILL");
  await rm(path.dirname(dir), { recursive: true, force: true });
});

describe.each(["school", "apikey", "oauth-client"])("npm run %s beside a running server", (name) => {
  const cli = (args: string[]) => runScript(`scripts/${name}.ts`, args, { PGLITE_DATA_DIR: dir, PLATFORM_DOMAIN: "localhost" });

  it("--help prints the usage and exits 0 without opening the database", async () => {
    for (const args of [["--help"], ["-h"], ["help"], ["list", "--help"]]) {
      const r = await cli(args);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      expect(r.stdout).toMatch(new RegExp(`^usage:\\n  npm run ${name} -- `));
    }
  }, 120_000);

  it("a command that needs the database says in one line what to do", async () => {
    const r = await cli(["list"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      `${name}: the embedded database ${dir} is in use by process ${serverPid} (npm start?): stop it, run this command, then start it again (PGlite allows one process; with DATABASE_URL both share Postgres)`,
    ]);
  }, 120_000);
});
