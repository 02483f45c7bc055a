import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDriver, createPgliteDriver, DataDirLockedError, lockDataDir } from "./driver";

const tmp = () => path.join(mkdtempSync(path.join(tmpdir(), "sh-pglite-")), "db");

describe("PGlite data directory lock", () => {
  it("records the owning process", () => {
    const dir = tmp();
    lockDataDir(dir);
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
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
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
  });

  // Opens a real on-disk database (initdb): seconds on a busy machine.
  it("is taken when a driver opens a directory", { timeout: 60_000 }, async () => {
    const dir = tmp();
    const driver = createPgliteDriver(dir);
    try {
      expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
      if (driver.kind === "pglite") await driver.pglite.waitReady;
    } finally {
      await closeDriver(driver);
    }
  });
});

describe("PGlite memory settings", () => {
  it("keeps shared_buffers small enough that the WebAssembly memory stays at its 128 MB minimum", async () => {
    const driver = createPgliteDriver("memory://");
    if (driver.kind !== "pglite") throw new Error("expected PGlite");
    try {
      const { rows } = await driver.pglite.query<{ shared_buffers: string }>("SHOW shared_buffers");
      expect(rows[0]!.shared_buffers).toBe("32MB");
      // Touch more than the buffers hold: the memory must not grow past its initial size.
      await driver.pglite.exec("CREATE TABLE t AS SELECT g, md5(g::text) AS m FROM generate_series(1, 200000) g; CREATE INDEX ON t (m);");
      await driver.pglite.query("SELECT count(*) FROM t WHERE m LIKE 'a%'");
      const memory = (driver.pglite as unknown as { mod: { HEAPU8: Uint8Array } }).mod.HEAPU8.buffer.byteLength;
      expect(memory).toBe(128 * 1024 * 1024);
    } finally {
      await closeDriver(driver);
    }
  }, 60_000);
});
