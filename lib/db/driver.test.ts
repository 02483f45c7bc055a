import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDriver, createPgliteDriver, DataDirLockedError } from "./driver";

const tmp = () => path.join(mkdtempSync(path.join(tmpdir(), "sh-pglite-")), "db");

describe("PGlite data directory lock", () => {
  it("records the owning process", async () => {
    const dir = tmp();
    const driver = createPgliteDriver(dir);
    try {
      expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    } finally {
      await closeDriver(driver);
    }
  });

  it("refuses a directory another live process holds", async () => {
    const dir = tmp();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
    try {
      writeFileSync(`${dir}.lock`, String(other.pid));
      expect(() => createPgliteDriver(dir)).toThrow(DataDirLockedError);
      expect(() => createPgliteDriver(dir)).toThrow(new RegExp(`in use by process ${other.pid}`));
    } finally {
      other.kill();
    }
  });

  it("takes over a lock left by a process that has exited", async () => {
    const dir = tmp();
    const gone = spawn(process.execPath, ["-e", "0"]);
    await new Promise((r) => gone.on("exit", r));
    writeFileSync(`${dir}.lock`, String(gone.pid));
    const driver = createPgliteDriver(dir);
    try {
      expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    } finally {
      await closeDriver(driver);
    }
  });

  it("needs no lock for an in-memory database", async () => {
    const driver = createPgliteDriver("memory://");
    await closeDriver(driver);
    expect(existsSync("memory://.lock")).toBe(false);
  });
});
