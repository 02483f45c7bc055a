// `npm run keys` end to end, as an operator runs it, against its own embedded database directory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "@/tests/helpers/run-script";

let dir: string;
const keys = (args: string[]) => runScript("scripts/keys.ts", args, { PGLITE_DATA_DIR: dir });
const kids = (stdout: string, state: string) => [...stdout.matchAll(new RegExp(`^(\\S{43})\\s+(RS256|ES256)\\s+created \\S+\\s+${state}`, "gm"))].map((m) => `${m[2]} ${m[1]}`);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "keys-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("npm run keys", () => {
  it("list, rotate (ahead, or --now), retire (safe, refused, --force); never prints a private key", async () => {
    expect((await keys(["list"])).stdout).toContain("no signing keys yet");

    const ahead = await keys(["rotate"]);
    expect(ahead.code).toBe(0);
    expect(ahead.stdout).toMatch(/new RS256 key \S{43}: published now, signs from \d{4}-/);
    expect(ahead.stdout).toMatch(/new ES256 key/);
    let listed = await keys(["list"]);
    expect(kids(listed.stdout, "next")).toHaveLength(2);

    const now = await keys(["rotate", "--alg", "ES256", "--now"]);
    expect(now.code).toBe(0);
    listed = await keys(["list"]);
    const [es] = kids(listed.stdout, "active");
    expect(es).toMatch(/^ES256 /);
    expect(listed.stdout).not.toMatch(/"d"|v1\./);

    const refused = await keys(["retire", es!.split(" ")[1]!]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^keys: \S+ signs ES256 tokens now: rotate first/m);
    expect((await keys(["retire"])).stdout).toContain("no key is ready to retire");

    const nextRs = kids(listed.stdout, "next").find((k) => k.startsWith("RS256"));
    expect((await keys(["retire", nextRs!.split(" ")[1]!])).code).toBe(1);
    const forced = await keys(["retire", nextRs!.split(" ")[1]!, "--force"]);
    expect(forced.code).toBe(0);
    expect((await keys(["list"])).stdout).toMatch(new RegExp(`${nextRs!.split(" ")[1]}\\s+RS256\\s+created \\S+\\s+retired`));

    const bad = await keys(["rotate", "--alg", "HS256"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("keys: --alg must be one of RS256, ES256");
    expect((await keys(["frobnicate"])).stderr).toContain("usage:");
  }, 120_000);
});
