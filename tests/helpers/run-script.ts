// Runs one of the project's scripts as an operator does (`tsx scripts/<name>.ts …`) against an
// embedded database directory of the test's own, and returns its exit code and output.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runScript(script: string, args: string[], env: { PGLITE_DATA_DIR: string } & Record<string, string>): Promise<ScriptResult> {
  try {
    const r = await run(path.join(ROOT, "node_modules/.bin/tsx"), [script, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", NODE_ENV: "development" as const, ...env },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as ScriptResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
