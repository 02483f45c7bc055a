// `npm run school -- stripe set|show|remove` as an operator runs it, against an embedded database of
// its own: the secrets are read from stdin (never the command line), stored sealed, and only their
// hints are ever printed (docs/security.md).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INVALID_SECRET_KEY } from "@/lib/billing/stripe-settings";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "stripe-cli-"));
const dataDir = path.join(dir, "db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function school(args: string[], stdin = ""): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/school.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", NODE_ENV: "development", PGLITE_DATA_DIR: dataDir },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
    child.stdin.end(stdin);
  });
}

const KEY = "sk_test_51CliTestSecretKeyAbcdefWXYZ";
const WHSEC = "whsec_CliTestSigningSecret0123wxyz";

describe("npm run school -- stripe", () => {
  it("set reads both secrets from stdin and shows only hints; a malformed key writes nothing; remove goes back to the test provider", async () => {
    expect((await school(["create", "--subdomain", "kiln", "--name", "Kiln", "--owner-email", "owner@kiln.example"])).code).toBe(0);
    const refused = await school(["stripe", "set", "--school", "kiln"], `pk_test_notASecretKey\n${WHSEC}\n`);
    expect(refused).toEqual({ code: 1, out: expect.stringContaining(INVALID_SECRET_KEY) });
    expect(refused.out).not.toContain(WHSEC);

    const set = await school(["stripe", "set", "--school", "kiln"], `${KEY}\n${WHSEC}\n`);
    expect(set.code).toBe(0);
    expect(set.out).toContain("kiln takes payments through Stripe (test mode): secret key sk_test_…WXYZ, webhook signing secret whsec_…wxyz");
    expect(set.out).toMatch(/Stripe webhook endpoint: http:\/\/kiln\.[^/\s]+\/api\/webhooks\/stripe/);
    expect(set.out).not.toContain(KEY);
    expect(set.out).not.toContain(WHSEC);

    const removed = await school(["stripe", "remove", "--school", "kiln"]);
    expect(removed).toEqual({ code: 0, out: expect.stringContaining("kiln takes payments through the test provider (test mode: no money moves)") });
  }, 420_000);
});
