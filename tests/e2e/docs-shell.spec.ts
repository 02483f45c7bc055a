// Every shell block of README.md and docs/deploy.md runs as written, in document order, in one bash
// session (a reader's terminal: variables carry from block to block) against a fresh server: `next
// start` of this build on an empty in-memory database with the demo seed. curl's connect-to sends
// localhost:3000 (and any host on port 3000) to that server, so the blocks keep the addresses a
// reader types and the server sees the same Host header. The blocks' own Postgres commands run
// against the suite's Postgres (deploy.md's migration and signing keys: README's own school's
// database, still DATABASE_URL in that session). Blocks marked `<!-- runs-in: … -->` are left to what
// the marker names; tests/unit/docs-markdown.test.ts pins which may be. A failure names the file and line.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { shellBlocks, type ShellBlock } from "../helpers/shell-blocks";
import { startNextServer, type NextServer } from "./next-server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = Number(process.env.E2E_PORT ?? 3100) + 1;
const PG_ADMIN = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
/** The database README's "Your own school" creates by name. */
const README_DATABASE = "myschool";
/** The reader's CRON_SECRET (docs/deploy.md's table), known to the server and to the blocks. */
const CRON_SECRET = "docs-shell-cron-secret-0123456789";

/**
 * What the text around a block promises, checked on the block's output (stdout and stderr).
 * Keyed by file and the heading the block sits under; every key must match a block.
 */
const PROMISES: Record<string, { has?: RegExp[]; hasNot?: RegExp[] }> = {
  "README.md#Your own school": {
    has: [/^applied: /m, /http:\/\/pottery\.localhost:3000\/account\/set-password\?token=/, /\bsh_[a-z0-9]+_[\w-]{20,}\b/, /\d+ changes written to pottery/],
  },
  "README.md#Try it": { has: [/"status":"ok"/] },
  "README.md#Admin GraphQL API": {
    has: [
      /"createSubscription":\{"errors":\[\],"subscription":\{"id":"[0-9a-f-]{36}","state":"active"/,
      /"updateSubscription":\{"errors":\[\],"subscription":\{"id":"[0-9a-f-]{36}","currentPeriodEnd":1893456000/,
      /"cancelSubscription":\{"errors":\[\],"subscription":\{"id":"[0-9a-f-]{36}","state":"[a-z_]+","isCanceling":true/,
      /"enrollStudentToCourse":\{"errors":\[\],"enrollment":\{"id":/,
      /"members":\{"nodes":\[\{"id":"[0-9a-f-]{36}","email":"student@/,
      /"a":\{"errors":\[\],"subscription":\{"id":/,
      /"membershipPlans":\[\{"id":/,
      /"createWebhookEndpoint":\{"errors":\[\],"secret":"whsec_/,
      /"webhookDeliveries":\[/,
    ],
    hasNot: [/"errors":\[\{"message"/],
  },
  "README.md#OAuth": {
    has: [
      /"issuer":"http:\/\/localhost:3000"/,
      /"access_token":"[^"]+","token_type":"Bearer"/i,
      /"sub":"[0-9a-f-]{36}"/,
      /"email":"student@schoolhouse\.test"/,
      /"active":true/,
      /\{"active":false\}/,
      /"client_id":"[^"]+"/,
    ],
    hasNot: [/"error":"/],
  },
  "README.md#Storefront": {
    has: [/^title: "Intro to SQL"/m, /^text\/html/m, /^304$/m, /^# .+\n/m, /"openapi":/, /^30[27] http:\/\/acme-training\.localhost:3000\/login/m],
  },
  "README.md#MCP (agents)": { has: [/^HTTP\/1\.1 401/m, /"resource":"http:\/\/localhost:3000\/mcp"/, /"result":\{.*"content":\[\{"type":"text","text":"\{\\"results\\":\[/, /"type":"text","text":"\d+ result/, /"structuredContent":\{"results":\[/] },
  "README.md#Benchmarks": { has: [/^ok$/m] },
  "docs/deploy.md#Environment": { has: [/^[A-Za-z0-9+/]{43}=$/m, /^[0-9a-f]{32}$/m] },
  "docs/deploy.md#Self-hosted": { has: [/^(applied: |database is up to date$)/m, /"status":"ok"/, /^200$/m, /\{"ok":true/] },
  "docs/deploy.md#Signing keys (OpenID Connect)": {
    has: [/^new RS256 key \S+: published now, signs from /m, /^new ES256 key /m, /\sRS256\s+created \S+\s+next \(signs from /, /^no key is ready to retire/m],
  },
  "README.md#Rate limits": { has: [/^RateLimit-Policy: /im, /^RateLimit: /im, /"rate_limit":\{"enforced":true/, /^\s*\d+ 200$/m, /^\s*\d+ 429$/m] },
};

interface Located extends ShellBlock {
  file: string;
}

const blocks: Located[] = ["README.md", "docs/deploy.md"].flatMap((file) =>
  shellBlocks(readFileSync(path.join(ROOT, file), "utf8"), file).map((b) => ({ ...b, file })),
);
const toRun = blocks.filter((b) => !b.runsIn);

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** One bash script: each block behind a marker line, so the output splits per block and a failure names its line. */
function script(list: Located[]): string {
  const parts = ["set -e", "exec 2>&1", `trap 'echo "::failed::"' ERR`];
  // On a line of its own even after output without a final newline (curl's JSON).
  list.forEach((b, i) => parts.push(`printf '\\n::block ${i}::\\n'`, b.code));
  parts.push(`printf '\\n::block end::\\n'`);
  return parts.join("\n") + "\n";
}

function bash(file: string, cwd: string, env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["--noprofile", "--norc", file], { cwd, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

let server: NextServer | undefined;
let work = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await admin(`DROP DATABASE IF EXISTS "${README_DATABASE}" WITH (FORCE)`);
  server = startNextServer(PORT, {
    NODE_ENV: "production",
    PGLITE_DATA_DIR: "memory://",
    DATABASE_URL: "",
    REDIS_URL: "",
    KV_REST_API_URL: "",
    KV_REST_API_TOKEN: "",
    PLATFORM_DOMAIN: "localhost",
    DEFAULT_SCHOOL: "demo",
    TRUST_PROXY: "",
    CRON_SECRET,
  });
  await server.healthy();
  // Inside the checkout, so `npm run …` finds package.json; .data/ is ignored by git.
  mkdirSync(path.join(ROOT, ".data"), { recursive: true });
  work = mkdtempSync(path.join(ROOT, ".data", "docs-shell-"));
});

test.afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
  await admin(`DROP DATABASE IF EXISTS "${README_DATABASE}" WITH (FORCE)`);
});

test("every README and deploy shell block runs as written and keeps its promises", async ({}, testInfo) => {
  test.setTimeout(300_000);
  expect(toRun.length).toBeGreaterThan(5);
  expect(toRun.filter((b) => b.file === "docs/deploy.md").length).toBeGreaterThanOrEqual(4);
  for (const key of Object.keys(PROMISES)) {
    expect(toRun.some((b) => `${b.file}#${b.heading}` === key), `${key}: no block runs under this heading`).toBe(true);
  }

  const curlHome = path.join(work, "curl");
  mkdirSync(curlHome);
  writeFileSync(path.join(curlHome, ".curlrc"), `connect-to = ":3000:127.0.0.1:${PORT}"\n`);
  writeFileSync(path.join(work, "blocks.sh"), script(toRun));
  const { host, port, username } = new URL(PG_ADMIN);
  // The blocks' npm scripts run as on a reader's machine: no NODE_ENV of the suite's.
  const { NODE_ENV: _nodeEnv, ...inherited } = process.env;
  const { code, output } = await bash(path.join(work, "blocks.sh"), work, {
    ...inherited,
    CURL_HOME: curlHome,
    // createdb / psql address the suite's Postgres, as the blocks' DATABASE_URL does.
    PGHOST: host.replace(/:\d+$/, ""),
    PGPORT: port || "5432",
    PGUSER: decodeURIComponent(username) || "postgres",
    DATABASE_URL: "",
    CRON_SECRET,
  });

  // Kept for reading after a failure (test-results/…/output.txt).
  writeFileSync(testInfo.outputPath("output.txt"), output);
  const pieces = output.split(/\n::block (\d+|end)::\n/);
  const outputs = new Map<number, string>();
  for (let i = 1; i < pieces.length; i += 2) if (pieces[i] !== "end") outputs.set(Number(pieces[i]), pieces[i + 1] ?? "");
  const ran = [...outputs.keys()];
  const last = ran.length ? Math.max(...ran) : -1;
  if (code !== 0 || !/^::block end::$/m.test(output)) {
    const b = toRun[last];
    throw new Error(`${b ? `${b.file}:${b.line} (${b.heading})` : "before the first block"}: the block failed (exit ${code}):\n${outputs.get(last) ?? output}`);
  }
  // A heading's promises hold for the output of all its blocks together.
  const byHeading = new Map<string, { where: string; out: string }>();
  toRun.forEach((b, i) => {
    const key = `${b.file}#${b.heading}`;
    const seen = byHeading.get(key);
    byHeading.set(key, { where: seen?.where ?? `${b.file}:${b.line} (${b.heading})`, out: (seen?.out ?? "") + (outputs.get(i) ?? "") });
  });
  for (const [key, promise] of Object.entries(PROMISES)) {
    const { where, out } = byHeading.get(key)!;
    for (const re of promise.has ?? []) expect(out, `${where} should print ${re}`).toMatch(re);
    for (const re of promise.hasNot ?? []) expect(out, `${where} should not print ${re}`).not.toMatch(re);
  }
});
