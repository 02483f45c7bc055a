// `npm run school` end to end, as an operator runs it, against its own embedded database directory.
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "@/tests/helpers/run-script";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;

const schoolCli = (dataDir: string, args: string[]) => runScript("scripts/school.ts", args, { PGLITE_DATA_DIR: dataDir, PLATFORM_DOMAIN: "localhost" });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "school-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("npm run school", () => {
  it("create prints a one-time link and an API key once; list shows neither", async () => {
    const created = await schoolCli(dir, ["create", "--subdomain", "ceramics", "--name", "Ceramics School", "--owner-email", "me@ceramics.example"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/created school ceramics \([0-9a-f-]{36}\) at http:\/\/ceramics\.localhost:3000/);
    const link = /(http:\/\/ceramics\.localhost:3000\/account\/set-password\?token=[A-Za-z0-9_-]{43})\b/.exec(created.stdout)?.[1];
    const key = /\b(sh_[a-z0-9]+_[A-Za-z0-9_-]{20,})\b/.exec(created.stdout)?.[1];
    expect(link).toBeTruthy();
    expect(key).toBeTruthy();
    expect(created.stdout).toMatch(/shown only this once/);

    const listed = await schoolCli(dir, ["list"]);
    expect(listed.stdout).toMatch(/ceramics\s+-\s+"Ceramics School"\s+active\s+members=1\s+courses=0/);
    expect(listed.stdout).not.toContain(key!);
    expect(listed.stdout).not.toContain(new URL(link!).searchParams.get("token")!);

    expect((await schoolCli(dir, ["disable", "ceramics"])).stdout).toContain("disabled school ceramics");
    expect((await schoolCli(dir, ["list"])).stdout).toMatch(/ceramics.*disabled \d{4}-/);
  }, 300_000);

  // Issue 29, item 9: the link names the port the school is served on, not always 3000.
  it("the printed links name the port: --port, else PORT, else 3000", async () => {
    const explicit = await schoolCli(dir, ["add-member", "--school", "ceramics", "--email", "p1@ceramics.example", "--role", "admin", "--port", "4123"]);
    expect(explicit.stdout).toMatch(/http:\/\/ceramics\.localhost:4123\/account\/set-password\?token=/);
    const fromEnv = await runScript("scripts/school.ts", ["add-member", "--school", "ceramics", "--email", "p2@ceramics.example", "--role", "admin"], {
      PGLITE_DATA_DIR: dir,
      PLATFORM_DOMAIN: "localhost",
      PORT: "3456",
    });
    expect(fromEnv.stdout).toMatch(/http:\/\/ceramics\.localhost:3456\/account\/set-password\?token=/);
    const bad = await schoolCli(dir, ["add-member", "--school", "ceramics", "--email", "p3@ceramics.example", "--role", "admin", "--port", "70000"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('school: --port must be a port number from 1 to 65535, got "70000"');
  }, 300_000);

  it("mail turns kinds off and on and sets the sender; unknown kinds and addresses are refused", async () => {
    const set = await schoolCli(dir, ["mail", "--school", "ceramics", "--off", "welcome,password-reset", "--from", "Hello@Ceramics.example"]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('ceramics mails from "Ceramics School" <hello@ceramics.example>');
    expect(set.stdout).toMatch(/welcome: off\n\s+verify-email: on\n\s+password-reset: off\n\s+purchase-receipt: on\n\s+renewal-receipt: on\n\s+payment-failed: on\n\s+payment-refunded: on\n\s+subscription-canceled: on\n\s+subscription-ending-soon: on\n\s+email-changed: on/);
    const back = await schoolCli(dir, ["mail", "--school", "ceramics", "--on", "welcome", "--from", "default"]);
    expect(back.stdout).toContain('"Ceramics School" <no-reply@localhost>');
    expect(back.stdout).toMatch(/welcome: on\n\s+verify-email: on\n\s+password-reset: off/);
    const bad = await schoolCli(dir, ["mail", "--school", "ceramics", "--off", "receipts"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('school: --off: unknown mail "receipts"; choose from welcome, verify-email, password-reset, purchase-receipt, renewal-receipt, payment-failed, payment-refunded, subscription-canceled, subscription-ending-soon, email-changed');
  }, 300_000);

  it("bad input is one line on stderr and exit code 1", async () => {
    const dup = await schoolCli(dir, ["create", "--subdomain", "ceramics", "--name", "Again", "--owner-email", "x@y.example"]);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe('school: a school with subdomain "ceramics" already exists');
    const role = await schoolCli(dir, ["add-member", "--school", "ceramics", "--email", "a@b.example", "--role", "root"]);
    expect(role.code).toBe(1);
    expect(role.stderr.trim()).toMatch(/^school: unknown role "root"/);
    const usage = await schoolCli(dir, []);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/usage:/);
  }, 300_000);

  it("import --dry-run, import, export, and a bad folder as file:line lines", async () => {
    const fixture = path.join(ROOT, "tests/fixtures/pottery-school");
    const dry = await schoolCli(dir, ["import", fixture, "--school", "ceramics", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would create courses/wheel-basics");
    expect(dry.stdout).toMatch(/dry run: \d+ changes not written to ceramics/);

    const bad = path.join(dir, "bad-folder");
    await cp(fixture, bad, { recursive: true });
    await writeFile(path.join(bad, "courses/wheel-basics.md"), "---\ntitle: Wheel\nprice: twelve\ncurrency: EUR\n---\n");
    const failed = await schoolCli(dir, ["import", bad, "--school", "ceramics"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("school: 1 problem in the content folder, nothing was changed:");
    expect(failed.stderr).toContain("courses/wheel-basics.md:3: price: must be a number");

    expect((await schoolCli(dir, ["import", fixture, "--school", "ceramics"])).stdout).toMatch(/\d+ changes written to ceramics/);
    const out = path.join(dir, "exported");
    expect((await schoolCli(dir, ["export", out, "--school", "ceramics"])).stdout).toMatch(/wrote \d+ files of ceramics/);
    expect((await schoolCli(dir, ["import", out, "--school", "ceramics"])).stdout).toContain(`ceramics already matches ${out}: nothing to change`);
  }, 300_000);

  // docs/decisions.md, "Billing", "Test clock": moves forward only; bad --to is one line.
  it("test-clock advance moves a school's test clock forward and reports what ran", async () => {
    const moved = await schoolCli(dir, ["test-clock", "advance", "--school", "ceramics", "--to", "+30d"]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/ceramics's test clock: \S+ -> \S+/);
    expect(moved.stdout).toMatch(/payments succeeded=0 failed=0 unknown=0/);
    const back = await schoolCli(dir, ["test-clock", "advance", "--school", "ceramics", "--to", "2020-01-01T00:00:00Z"]);
    expect(back.code).toBe(1);
    expect(back.stderr.trim()).toBe("school: A test clock only moves forward: pass a time after the clock's");
    const bad = await schoolCli(dir, ["test-clock", "advance", "--school", "ceramics", "--to", "soon"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(/^school: --to must be an ISO time/);
  }, 300_000);
});
