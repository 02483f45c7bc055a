// A write the embedded database has committed survives a SIGKILL of the process (issue 30, item 4;
// docs/decisions.md, "The embedded database's durability"). PGlite runs Postgres with fsync off and
// its Node file system has no fsync at all, so nothing here survives a power cut or a kernel crash:
// what makes a commit outlive the process is that COMMIT writes its WAL into the kernel (a write(2)
// through Emscripten's NODEFS) before it returns. `synchronous_commit=off` would break exactly that,
// and the control below shows this test notices.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDriver, createPgliteDriver } from "./driver";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WRITER = path.join(ROOT, "tests/helpers/pglite-writer.ts");

/**
 * Starts the writer on `dir`, lets it acknowledge at least `acks` commits, kills it with SIGKILL
 * mid-stream and returns every id it acknowledged (read to the end of its pipe after the kill).
 */
async function crashAfter(dir: string, acks: number, extra: string[] = []): Promise<string[]> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", WRITER, dir, ...extra], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const acked: string[] = [];
  let buffer = "";
  let killed = false;
  try {
    for await (const chunk of child.stdout!) {
      buffer += String(chunk);
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) if (line.startsWith("ok ")) acked.push(line.slice(3));
      if (!killed && acked.length >= acks) {
        child.kill("SIGKILL");
        killed = true;
      }
    }
  } finally {
    if (!killed) child.kill("SIGKILL");
    await exited;
  }
  if (!killed) throw new Error(`the writer exited after ${acked.length} commits`);
  return acked;
}

async function missingAfterRestart(dir: string, acked: string[]): Promise<string[]> {
  const driver = createPgliteDriver(dir);
  if (driver.kind !== "pglite") throw new Error("expected PGlite");
  try {
    // Without its WAL even the table's creation is gone (the control loses everything).
    const exists = (await driver.pglite.query<{ t: string | null }>(`SELECT to_regclass('committed')::text AS t`)).rows[0]?.t;
    const rows = exists ? (await driver.pglite.query<{ id: string }>(`SELECT id FROM committed`)).rows : [];
    const present = new Set(rows.map((r) => r.id));
    return acked.filter((id) => !present.has(id));
  } finally {
    await closeDriver(driver);
  }
}

describe("the embedded database after a SIGKILL", () => {
  it("keeps every write it acknowledged: named statements, transactions and plain queries", { timeout: 300_000 }, async () => {
    const root = mkdtempSync(path.join(tmpdir(), "sh-crash-"));
    try {
      const dir = path.join(root, "db");
      const acked = await crashAfter(dir, 600);
      expect(acked.length).toBeGreaterThanOrEqual(600);
      expect(await missingAfterRestart(dir, acked)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("(control) notices lost commits: with synchronous_commit=off acknowledged writes are gone", { timeout: 300_000 }, async () => {
    const root = mkdtempSync(path.join(tmpdir(), "sh-crash-"));
    try {
      const dir = path.join(root, "db");
      const acked = await crashAfter(dir, 600, ["-c", "synchronous_commit=off"]);
      expect((await missingAfterRestart(dir, acked)).length).toBeGreaterThan(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
