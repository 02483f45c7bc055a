#!/usr/bin/env node
// npm test: typecheck, lint, layers (.dependency-cruiser.cjs), Vitest (unit + integration), production build, Playwright.
// Stops at the first failing step and ends with one closing line: "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

// Not test-results/: Playwright empties that folder when it starts.
const out = ".test-reports";
mkdirSync(out, { recursive: true });
const vitestJson = `${out}/vitest.json`;
const playwrightJson = `${out}/playwright.json`;
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const steps = [
  ["typecheck", "npx", ["tsc", "--noEmit"]],
  ["lint", "npx", ["eslint", "--max-warnings=0", "."]],
  ["layers", "npm", ["run", "--silent", "layers"]],
  ["vitest", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]],
  ["build", "npx", ["next", "build"]],
  ["playwright", "npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson }],
];

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(vitestJson)) {
    const v = JSON.parse(readFileSync(vitestJson, "utf8"));
    passed += v.numPassedTests;
    failed += v.numFailedTests;
    skipped += v.numPendingTests + v.numTodoTests;
  }
  if (existsSync(playwrightJson)) {
    const s = JSON.parse(readFileSync(playwrightJson, "utf8")).stats;
    passed += s.expected + s.flaky;
    failed += s.unexpected;
    skipped += s.skipped;
  }
  return { passed, failed, skipped };
}

let failedStep;
for (const [name, cmd, args, env] of steps) {
  console.log(`\n── ${name} ──`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) {
    failedStep = name;
    break;
  }
}
const { passed, failed, skipped } = counts();
if (failedStep) console.log(`\nstep failed: ${failedStep}`);
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failedStep || failed > 0 ? 1 : passed === 0 ? 1 : 0);
