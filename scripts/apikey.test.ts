// `npm run apikey` end to end, as an operator runs it, against its own embedded database directory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "@/tests/helpers/run-script";

let dir: string;

const cli = (script: string, args: string[] = []) => runScript(script, args, { PGLITE_DATA_DIR: dir });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "apikey-cli-"));
  expect((await cli("scripts/db-seed.ts")).code).toBe(0);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("npm run apikey", () => {
  it("create prints the key once; list never shows it; revoke marks it revoked", async () => {
    const created = await cli("scripts/apikey.ts", ["create", "--school", "demo", "--name", "CLI test", "--permissions", "courses,subscriptions"]);
    expect(created.code).toBe(0);
    const key = /\b(sh_[a-z0-9]+_[A-Za-z0-9_-]{20,})\b/.exec(created.stdout)?.[1];
    expect(key).toBeTruthy();
    expect(created.stdout).toContain("permissions: courses, subscriptions");
    expect(created.stdout).toMatch(/only time the key is shown/);
    const prefix = key!.split("_")[1]!;

    const listed = await cli("scripts/apikey.ts", ["list", "--school", "demo"]);
    expect(listed.stdout).toContain(prefix);
    expect(listed.stdout).not.toContain(key!);
    expect(listed.stdout).toMatch(new RegExp(`${prefix}\\s+demo\\s+"CLI test"\\s+active`));

    expect((await cli("scripts/apikey.ts", ["revoke", prefix])).stdout).toContain(`revoked API key ${prefix}`);
    expect((await cli("scripts/apikey.ts", ["list"])).stdout).toMatch(new RegExp(`${prefix}.*revoked`));
  }, 120_000);

  it("bad input is one line and exit code 1", async () => {
    const r = await cli("scripts/apikey.ts", ["create", "--school", "demo", "--name", "x", "--permissions", "dropTables"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^apikey: unknown permission dropTables/);
    const usage = await cli("scripts/apikey.ts", []);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/usage:/);
  }, 120_000);
});
