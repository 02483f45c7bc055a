import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// One graphql instance, as in the built server (graphql is an external there): dependencies load it
// through Node (its CommonJS entry), and without this our own imports would get its ES module copy,
// whose rules, types and errors are other objects (lib/admin-api/validation-cache.ts tells rules
// apart by identity).
const alias = [
  { find: "@", replacement: path.resolve(import.meta.dirname) },
  { find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") },
];
const integrationFiles = ["tests/integration/**/*.test.ts"];
// Every project's first setup file: fast-check generates up to the `maxLength` a property declares,
// not its default "small" size (tests/setup/fast-check.ts, checked by tests/unit/fast-check-setup.test.ts).
const fastCheck = "tests/setup/fast-check.ts";
// The app under test uses its in-memory defaults; tests that need Redis take TEST_REDIS_URL explicitly.
const redisForTests = { TEST_REDIS_URL: process.env.REDIS_URL ?? "", REDIS_URL: "" };
// Tests write content and read it back at once: the content cache checks the content version on
// every request (content-cache.test.ts covers the production interval).
// Tests never use the internet: no Client ID Metadata Document host unless a test names one.
// Mails sent without a test's own SMTP server are filed outside the worktree.
const appEnv = {
  NODE_ENV: "test",
  STOREFRONT_REVALIDATE_MS: "0",
  OAUTH_CIMD_ALLOWED_HOSTS: "none",
  MAIL_OUTBOX_DIR: path.join(tmpdir(), "schoolhouse-test-mail-outbox"),
} as const;

// Integration tests run on in-process PGlite, and again on real Postgres when TEST_DATABASE_URL is set.
const projects: TestProjectInlineConfiguration[] = [
  // Some unit tests start a PGlite or a child process; on a busy two-core CI machine that alone can
  // take longer than vitest's default 5 s, or 10 s in a hook (a hang still fails, at 30 s / 60 s).
  {
    resolve: { alias },
    test: {
      name: "unit",
      include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts", "tests/unit/**/*.test.ts"],
      environment: "node",
      setupFiles: [fastCheck],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    resolve: { alias },
    test: {
      name: "integration",
      include: integrationFiles,
      globalSetup: ["tests/setup/pglite-template.ts"],
      setupFiles: [fastCheck, "tests/setup/database.ts"],
      env: { TEST_DB_KIND: "pglite", ...appEnv, ...redisForTests },
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
];
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    resolve: { alias },
    test: {
      name: "integration-pg",
      include: [...integrationFiles, "tests/pg/**/*.test.ts"],
      setupFiles: [fastCheck, "tests/setup/database.ts"],
      env: { TEST_DB_KIND: "pg", ...appEnv, ...redisForTests },
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  });
}

// Redis-only tests (shared stores, @vercel/kv through a local Upstash REST server) need a Redis.
const testRedisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL;
if (testRedisUrl) {
  projects.push({
    resolve: { alias },
    test: {
      name: "redis",
      include: ["tests/redis/**/*.test.ts"],
      globalSetup: ["tests/setup/pglite-template.ts"],
      setupFiles: [fastCheck, "tests/setup/database.ts"],
      env: { TEST_DB_KIND: "pglite", ...appEnv, TEST_REDIS_URL: testRedisUrl, REDIS_URL: "" },
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  });
}

export default defineConfig({
  test: {
    projects,
    pool: "forks",
    // Two cores: more workers only add contention.
    maxWorkers: 2,
  },
});
