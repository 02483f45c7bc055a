import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";

/** Starts the production server with an environment and collects what it prints until it exits. */
function startServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server/start.mjs", "-p", "0"], {
      env: { ...process.env, PGLITE_DATA_DIR: "memory://", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const schoolhouseLines = (output: string) => output.split("\n").filter((l) => l.startsWith("schoolhouse:"));

test("a bad env value stops the server with a one-line reason", async () => {
  const { code, output } = await startServer({ PLATFORM_DOMAIN: "Not A Domain" });
  expect(code).toBe(1);
  expect(schoolhouseLines(output)).toEqual([
    "schoolhouse: invalid configuration: PLATFORM_DOMAIN: must be a lower-case host name without port, e.g. schoolhouse.app",
  ]);
  expect(output).not.toMatch(/\n\s+at /);
});

test("an unreachable DATABASE_URL is retried for DATABASE_STARTUP_WAIT_SECONDS, said in one line, then stops the server with a one-line reason", async () => {
  const { code, output } = await startServer({
    DATABASE_URL: "postgresql://postgres@127.0.0.1:1/nowhere",
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e",
    DATABASE_STARTUP_WAIT_SECONDS: "2",
  });
  expect(code).toBe(1);
  const lines = schoolhouseLines(output);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toBe(
    "schoolhouse: database unreachable at DATABASE_URL (127.0.0.1:1/nowhere); retrying with backoff for up to 2 s",
  );
  expect(lines[1]).toMatch(/^schoolhouse: cannot connect to DATABASE_URL \(127\.0\.0\.1:1\/nowhere\): /);
  expect(output).not.toMatch(/\n\s+at /);
});
