// From an empty Postgres to one's own school, as README tells a new user: db:migrate, school
// create, school import, a production start; then the owner sets a password through the printed
// link in Chromium and signs in, the storefront serves the imported content and the printed Admin
// API key works. A production start before db:migrate refuses with one line.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { startSmtpInbox, type SmtpInbox } from "../helpers/smtp-inbox";
import { createSpecDatabase, productionEnv, startNextServer, type NextServer, type SpecDatabase } from "./next-server";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_ADMIN = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const PORT = Number(process.env.E2E_PORT ?? 3100) + 1;
// Filled in beforeAll: the database of this test (not migrated: that is step 2) and its mail server.
let env: NodeJS.ProcessEnv = { ...process.env };

const cli = (script: string, args: string[]) => run(path.join(ROOT, "node_modules/.bin/tsx"), [script, ...args], { cwd: ROOT, env });

const start = (port: number) => startNextServer(port, env);

let database: SpecDatabase | undefined;
let server: NextServer | undefined;
let inbox: SmtpInbox | undefined;

test.beforeAll(async () => {
  database = await createSpecDatabase({ adminUrl: PG_ADMIN, prefix: "sh_e2e_own", migrate: false });
  inbox = await startSmtpInbox();
  env = {
    ...process.env,
    // Production on DATABASE_URL needs a mail server while schools send mail: this test's own.
    ...productionEnv({ databaseUrl: database.url, mailUrl: inbox.url, env: { DIRECT_DATABASE_URL: database.url, SEED_ON_START: "0", PGLITE_DATA_DIR: "" } }),
  };
  // One's own school is the only one: no demo school to default to.
  delete env.DEFAULT_SCHOOL;
});
test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
  await database?.drop();
});

test("empty Postgres → own school with content, owner login and Admin API key", async ({ browser }) => {
  test.setTimeout(240_000);

  // 1. A production start on the unmigrated database refuses with one line.
  const refused = start(0);
  expect(await refused.exited).toBe(1);
  const lines = refused.output().split("\n").filter((l) => l.startsWith("schoolhouse:"));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^schoolhouse: the database schema is not current \(\d+ migrations? pending, first \w+\): run `npm run db:migrate`/);
  expect(refused.output()).not.toMatch(/\n\s+at /);

  // 2. The handful of commands from README.
  expect((await cli("scripts/db-migrate.ts", [])).stdout).toMatch(/^applied: /);
  const created = await cli("scripts/school.ts", ["create", "--subdomain", "pottery", "--name", "Clay & Kiln", "--owner-email", "ana@clay.example", "--port", String(PORT)]);
  const link = new RegExp(`(http://pottery\\.localhost:${PORT}/account/set-password\\?token=[\\w-]{43})`).exec(created.stdout)![1]!;
  // The secret is base64url: it may end in "-", where \b would cut it short (one key in 64).
  const key = /\b(sh_[a-z0-9]+_[\w-]{32})(?![\w-])/.exec(created.stdout)![1]!;
  const imported = await cli("scripts/school.ts", ["import", "tests/fixtures/pottery-school", "--school", "pottery"]);
  expect(imported.stdout).toMatch(/\d+ changes written to pottery/);

  server = start(PORT);
  await server.healthy();
  // With MAIL_URL set, the owner the CLI created is welcomed by mail too (the worker sends it).
  await expect.poll(() => inbox!.mails.filter((m) => m.to.includes("ana@clay.example")).length, { timeout: 30_000 }).toBeGreaterThan(0);

  // 3. The owner sets a password through the link, once, and signs in.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByText("ana@clay.example")).toBeVisible();
  await page.getByLabel("New password").fill("a-kiln-at-1240-degrees");
  await page.getByLabel("Repeat the password").fill("a-kiln-at-1240-degrees");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page).toHaveURL(/\/login\?/);
  // The confirmation survives the CSRF-cookie detour, and the email is filled in (issue 29, item 9).
  await expect(page.getByRole("status")).toHaveText("Your password is set. Sign in with it below.");
  await expect(page.getByLabel("Email")).toHaveValue("ana@clay.example");
  await page.getByLabel("Password").fill("a-kiln-at-1240-degrees");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`http://pottery.localhost:${PORT}/`);
  await expect(page.getByRole("heading", { name: "Make pots that last" })).toBeVisible();
  expect((await context.cookies()).some((c) => c.name === "authjs.session-token")).toBe(true);

  await page.goto(link);
  await expect(page.getByText("This link has already been used")).toBeVisible();

  // The bare host serves the one school there is (DEFAULT_SCHOOL names the absent demo).
  const bare = await page.goto(`http://localhost:${PORT}/`);
  expect(bare?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Make pots that last" })).toBeVisible();

  // 4. Pages, markdown and llms.txt serve the imported content.
  for (const [p, text] of [
    ["/courses/glaze-chemistry", "Glaze Chemistry"],
    ["/api/md/courses", "Wheel Basics"],
    ["/api/md/plans/studio-monthly", "Studio Monthly"],
    ["/llms.txt", "Clay & Kiln"],
  ] as const) {
    const res = await page.goto(`http://pottery.localhost:${PORT}${p}`);
    expect(res?.status(), p).toBe(200);
    expect(await res!.text(), p).toContain(text);
  }
  // school.yaml's contact address and brand colour reach the storefront.
  await page.goto(`http://pottery.localhost:${PORT}/`);
  await expect(page.locator('footer a[href="mailto:hello@clay-and-kiln.example"]')).toBeVisible();
  expect(await page.locator('footer a[href="mailto:hello@clay-and-kiln.example"]').evaluate((a) => getComputedStyle(a).color)).toBe("rgb(181, 86, 43)");
  await context.close();

  // 5. The printed Admin API key works.
  const api = await fetch(`http://127.0.0.1:${PORT}/admin/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-api-key": key },
    body: JSON.stringify({ query: "{ membershipPlans { name } }" }),
  });
  expect(api.status).toBe(200);
  expect((await api.json()).data.membershipPlans.map((p: { name: string }) => p.name).sort()).toEqual(["Lifetime", "Studio Monthly"]);

  // 6. Nothing of the demo (and none of its public secrets) reached this production database.
  const c = new pg.Client({ connectionString: database!.url });
  await c.connect();
  const demo = await c.query(`SELECT (SELECT count(*) FROM "School") AS schools, (SELECT count(*) FROM "User" WHERE email LIKE '%@schoolhouse.test') AS demo_users, (SELECT count(*) FROM "ApiKey" WHERE prefix IN ('demofull', 'demonone', 'acmefull')) AS demo_keys`);
  await c.end();
  expect(demo.rows[0]).toEqual({ schools: "1", demo_users: "0", demo_keys: "0" });
});
