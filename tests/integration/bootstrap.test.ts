import { describe, expect, it } from "vitest";
import { bootstrap, startupFailureLine, StartupError } from "@/lib/startup/bootstrap";
import { db } from "@/lib/db/client";
import { DataDirLockedError } from "@/lib/db/driver";
import { MigrationError } from "@/lib/db/migrator";
import { ConfigError } from "@/lib/env";

describe("bootstrap", () => {
  it("seeds an empty database once and is quiet when everything is up to date", async () => {
    expect(await db().school.count()).toBe(0);
    const first: string[] = [];
    await bootstrap({ log: (l) => first.push(l) });
    expect(first).toEqual(["seeded the demo schools (empty database)"]);
    expect(await db().school.count()).toBe(2);

    const second: string[] = [];
    await bootstrap({ log: (l) => second.push(l) });
    expect(second).toEqual([]);
  });
});

describe("startupFailureLine", () => {
  it("prints one line per failure kind, never a stack", () => {
    expect(startupFailureLine(new ConfigError("PLATFORM_DOMAIN: bad"))).toBe("schoolhouse: invalid configuration: PLATFORM_DOMAIN: bad");
    expect(startupFailureLine(new StartupError("cannot connect"))).toBe("schoolhouse: cannot connect");
    expect(startupFailureLine(new DataDirLockedError("/d", 7))).toBe("schoolhouse: the embedded database /d is in use by process 7; stop it first (PGlite allows one process)");
    expect(startupFailureLine(new MigrationError("m failed\nat x"))).toBe("schoolhouse: start-up failed: m failed");
    expect(startupFailureLine("weird")).toBe("schoolhouse: start-up failed: weird");
  });
});
