import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./tests/e2e/chromium";

// The suite runs against a production build (`next build` runs first in `npm run test:e2e`)
// started with the production entry (server/start.mjs, as `npm run serve`) on a fresh in-memory
// database, seeded with the demo schools.
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;
export const E2E_MAIL_OUTBOX_DIR = `.data/e2e-mail-outbox-${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? "list" : [["list"]],
  timeout: 30_000,
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: "off",
  },
  webServer: {
    command: `node server/start.mjs -p ${port}`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PGLITE_DATA_DIR: "memory://",
      PLATFORM_DOMAIN: "localhost",
      DEFAULT_SCHOOL: "demo",
      DATABASE_URL: "",
      REDIS_URL: "",
      NODE_ENV: "production",
      // No MAIL_URL: mails are filed here (tests/e2e/mail-outbox.ts reads them back).
      MAIL_URL: "",
      MAIL_OUTBOX_DIR: E2E_MAIL_OUTBOX_DIR,
    },
  },
});
