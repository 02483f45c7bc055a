import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { closeDriver, createPgliteDriver, DataDirLockedError, lockDataDir, lockOwnerAlive } from "./driver";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HOLDER = path.join(ROOT, "tests/helpers/pglite-holder.ts");
/** Fields 3 onwards of /proc/<pid>/stat: [0] is the state letter, [19] the start time. */
const stat = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
};

async function readyPid(child: ChildProcess): Promise<number> {
  let out = "";
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const m = /ready (\d+)/.exec(out);
    if (m) return Number(m[1]);
  }
  throw new Error(`holder exited: ${out}`);
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
}

const tmp = () => path.join(mkdtempSync(path.join(tmpdir(), "sh-pglite-")), "db");

describe("PGlite data directory lock", () => {
  it("records the owning process", () => {
    const dir = tmp();
    lockDataDir(dir);
    expect(readFileSync(`${dir}.lock`, "utf8")).toMatch(new RegExp(`^${process.pid} \\d+$`));
    // Re-entrant for the owner.
    expect(() => lockDataDir(dir)).not.toThrow();
  });

  it("refuses a directory another live process holds", () => {
    const dir = tmp();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
    try {
      writeFileSync(`${dir}.lock`, String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${other.pid}`));
      expect(() => createPgliteDriver(dir)).toThrow(DataDirLockedError);
    } finally {
      other.kill();
    }
  });

  it("takes over a lock left by a process that has exited", async () => {
    const dir = tmp();
    const gone = spawn(process.execPath, ["-e", "0"]);
    await new Promise((r) => gone.on("exit", r));
    writeFileSync(`${dir}.lock`, String(gone.pid));
    lockDataDir(dir);
    expect(readFileSync(`${dir}.lock`, "utf8")).toMatch(new RegExp(`^${process.pid} `));
  });

  it("refuses a live owner whose start time matches, takes over one whose pid now names another process", () => {
    const dir = tmp();
    const other = spawn("sleep", ["30"]);
    try {
      const start = stat(other.pid!)[19];
      writeFileSync(`${dir}.lock`, `${other.pid} ${start}`);
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${other.pid}`));
      // The same pid with another start time: the owner died and the pid was handed to `sleep`.
      writeFileSync(`${dir}.lock`, `${other.pid} ${Number(start) - 1}`);
      lockDataDir(dir);
      expect(readFileSync(`${dir}.lock`, "utf8")).toMatch(new RegExp(`^${process.pid} `));
    } finally {
      other.kill();
    }
  });

  // Issue 29, item 15: a server killed with SIGKILL stays a zombie until its parent reaps it, and
  // kill(pid, 0) succeeds on a zombie. The restart right after the crash must open the same data.
  it("takes over from a SIGKILLed owner that is still a zombie, and the data survives", { timeout: 120_000 }, async () => {
    const dir = tmp();
    // `exec sleep` replaces the shell with a parent that never reaps its child: the killed holder stays a zombie.
    // The holder runs in node itself (tsx's CLI would be a parent that reaps it).
    const parent = spawn("sh", ["-c", `"$0" "$@" & exec sleep 60`, process.execPath, "--import", "tsx", HOLDER, dir, "written before the crash"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let pid = 0;
    try {
      pid = await readyPid(parent);
      process.kill(pid, "SIGKILL");
      await waitFor(() => stat(pid)[0] === "Z");
      expect(() => process.kill(pid, 0)).not.toThrow();

      const driver = createPgliteDriver(dir);
      try {
        if (driver.kind !== "pglite") throw new Error("expected PGlite");
        const { rows } = await driver.pglite.query<{ value: string }>("SELECT value FROM crash_proof");
        expect(rows).toEqual([{ value: "written before the crash" }]);
        expect(readFileSync(`${dir}.lock`, "utf8")).toMatch(new RegExp(`^${process.pid} `));
      } finally {
        await closeDriver(driver);
      }
    } finally {
      if (pid) process.kill(pid, "SIGKILL");
      parent.kill("SIGKILL");
    }
  });

  it("never throws anything but DataDirLockedError, and only for a live owner (seeded property)", () => {
    const dir = tmp();
    const self = `${process.pid} ${stat(process.pid)[19]}`;
    const record = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer({ min: -5, max: 2 ** 31 }).map(String),
      fc.tuple(fc.integer({ min: 1, max: 4_194_304 }), fc.nat()).map(([pid, start]) => `${pid} ${start}`),
      fc.constant(`1 ${stat(1)[19]}`),
    );
    fc.assert(
      fc.property(record, (contents) => {
        writeFileSync(`${dir}.lock`, contents);
        try {
          lockDataDir(dir);
          expect(readFileSync(`${dir}.lock`, "utf8")).toBe(Number(contents.trim().split(" ")[0]) === process.pid ? contents : self);
        } catch (err) {
          expect(err).toBeInstanceOf(DataDirLockedError);
          expect(lockOwnerAlive(contents)).toBe(true);
        }
      }),
      { seed: 29_15, numRuns: 300 },
    );
  });

  // Opens a real on-disk database (initdb): seconds on a busy machine.
  it("is taken when a driver opens a directory", { timeout: 60_000 }, async () => {
    const dir = tmp();
    const driver = createPgliteDriver(dir);
    try {
      expect(readFileSync(`${dir}.lock`, "utf8")).toMatch(new RegExp(`^${process.pid} `));
      if (driver.kind === "pglite") await driver.pglite.waitReady;
    } finally {
      await closeDriver(driver);
    }
  });
});

/** Anonymous mappings of this process as "start-end" → resident KB, from /proc/self/smaps. */
function mappings(): Map<string, { mb: number; residentKb: number }> {
  const out = new Map<string, { mb: number; residentKb: number }>();
  let current: { mb: number; residentKb: number } | undefined;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*$/.exec(line);
    if (head) {
      current = { mb: (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1048576, residentKb: 0 };
      out.set(`${head[1]}-${head[2]}`, current);
    } else if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) current = undefined;
    else if (current && line.startsWith("Rss:")) current.residentKb = Number(/(\d+)/.exec(line)![1]);
  }
  return out;
}

/**
 * What a PGlite started with `startParams` keeps resident of its WebAssembly memory (the one
 * 128 MB mapping that was not there before it started) after its buffers are used and a
 * 20,000-row table is analyzed.
 */
async function residentAfterAnalyze(startParams?: readonly string[]): Promise<{ settings: string[]; residentMb: number }> {
  const before = new Set(mappings().keys());
  const driver = createPgliteDriver("memory://", startParams ? { startParams } : {});
  if (driver.kind !== "pglite") throw new Error("expected PGlite");
  try {
    const { rows } = await driver.pglite.query<{ setting: string }>(
      "SELECT current_setting('shared_buffers') AS setting UNION ALL SELECT current_setting('default_statistics_target')",
    );
    await driver.pglite.exec(`CREATE TABLE s AS SELECT md5(g::text) AS id, md5((g * 7)::text) AS member, now() AS created,
      jsonb_build_object('k', g, 'v', repeat('y', 50)) AS meta, repeat('z', 80) AS note FROM generate_series(1, 20000) g;
      CREATE INDEX ON s (member); SELECT count(*) FROM s WHERE member LIKE 'a%'; ANALYZE s;`);
    const memory = [...mappings()].filter(([range, m]) => !before.has(range) && m.mb === 128);
    expect(memory).toHaveLength(1);
    return { settings: rows.map((r) => r.setting), residentMb: memory[0]![1].residentKb / 1024 };
  } finally {
    await closeDriver(driver);
  }
}

describe("PGlite memory settings", () => {
  // The memory never gives a page back (lib/db/driver.ts): what the buffers and ANALYZE's sample
  // touch once is held by the server for good.
  it("keeps what the buffers and ANALYZE touch of the WebAssembly memory small", async () => {
    const shipped = await residentAfterAnalyze();
    expect(shipped.settings).toEqual(["8MB", "30"]);
    expect(shipped.residentMb).toBeLessThan(32);
    // Control: the settings before (Postgres's statistics target, 32 MB of buffers).
    const before = await residentAfterAnalyze([...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"]);
    expect(before.settings).toEqual(["32MB", "100"]);
    expect(before.residentMb).toBeGreaterThan(shipped.residentMb + 20);
  }, 60_000);

  it("keeps the memory at its 128 MB minimum when more than the buffers is read", async () => {
    const driver = createPgliteDriver("memory://");
    if (driver.kind !== "pglite") throw new Error("expected PGlite");
    try {
      await driver.pglite.exec("CREATE TABLE t AS SELECT g, md5(g::text) AS m FROM generate_series(1, 200000) g; CREATE INDEX ON t (m);");
      await driver.pglite.query("SELECT count(*) FROM t WHERE m LIKE 'a%'");
      const memory = (driver.pglite as unknown as { mod: { HEAPU8: Uint8Array } }).mod.HEAPU8.buffer.byteLength;
      expect(memory).toBe(128 * 1024 * 1024);
    } finally {
      await closeDriver(driver);
    }
  }, 60_000);
});
