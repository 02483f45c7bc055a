import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The layer rules of .dependency-cruiser.cjs (run by `npm test` as `npm run layers`) on small trees
// shaped like this repository: each rule fails on an import that breaks it and names itself; a tree
// that keeps the layers passes.
const repo = path.resolve(__dirname, "../..");
const config = path.join(repo, ".dependency-cruiser.cjs");
const depcruise = path.join(repo, "node_modules/.bin/depcruise");
const dirs: string[] = [];

function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "layers-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", strict: true } }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const roots = [...new Set(Object.keys(files).map((f) => f.split("/")[0]!))];
  const r = spawnSync(depcruise, [...roots, "--config", config, "--output-type", "err"], { cwd: dir, encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const leaf = "export const value = 1;\n";
const uses = (spec: string) => `import { value } from "${spec}";\nexport const other = value;\n`;

describe("layer rules", { timeout: 60_000 }, () => {
  it("pass a tree that keeps the layers", () => {
    const r = cruise({
      "lib/env.ts": leaf,
      "lib/db/client.ts": uses("../env"),
      "lib/core/ids.ts": uses("../db/client"),
      "lib/membership/verb.ts": uses("../core/ids"),
      "lib/mcp/tools.ts": uses("../membership/verb"),
      "lib/startup/seed.ts": uses("../mcp/tools"),
      "app/route.ts": uses("../lib/startup/seed"),
    });
    expect(r.output).toContain("no dependency violations found");
    expect(r.status).toBe(0);
  });

  it("fail every upward import and cycle, naming the rule and the import", () => {
    const r = cruise({
      "lib/env.ts": uses("./db/client"),
      "lib/db/client.ts": leaf,
      "lib/db/seed.ts": uses("../oauth/roles"),
      "lib/core/page.ts": uses("../oauth/roles"),
      "lib/oauth/roles.ts": leaf,
      "lib/membership/verb.ts": uses("../admin-api/authenticate"),
      "lib/admin-api/authenticate.ts": leaf,
      "lib/mcp/authenticate.ts": uses("../admin-api/authenticate"),
      "lib/auth/login.ts": uses("../startup/seed"),
      "lib/startup/seed.ts": leaf,
      "lib/storefront/page.ts": uses("../../app/handlers"),
      "app/handlers.ts": leaf,
      "lib/webhooks/a.ts": `import type { B } from "./b";\nexport type A = { b?: B };\n`,
      "lib/webhooks/b.ts": `import type { A } from "./a";\nexport type B = { a?: A };\n`,
      "lib/invoicing/charge.ts": uses("../db/client"),
    });
    expect(r.status).not.toBe(0);
    const expected: [rule: string, from: string, to: string][] = [
      ["base-imports-nothing-of-lib", "lib/env.ts", "lib/db/client.ts"],
      ["db-is-the-floor", "lib/db/seed.ts", "lib/oauth/roles.ts"],
      ["shared-below-features", "lib/core/page.ts", "lib/oauth/roles.ts"],
      ["features-below-transports", "lib/membership/verb.ts", "lib/admin-api/authenticate.ts"],
      ["transports-apart", "lib/mcp/authenticate.ts", "lib/admin-api/authenticate.ts"],
      ["startup-is-the-top", "lib/auth/login.ts", "lib/startup/seed.ts"],
      ["lib-below-app", "lib/storefront/page.ts", "app/handlers.ts"],
      ["no-circular", "lib/webhooks/a.ts", "lib/webhooks/b.ts"],
      ["lib-has-layers", "lib/invoicing/charge.ts", "lib/db/client.ts"],
    ];
    for (const [rule, from, to] of expected) {
      expect(r.output, rule).toMatch(new RegExp(`error ${rule}: ${from.replace(/\./g, "\\.")} → (\\s*)${to.replace(/\./g, "\\.")}`));
    }
  });
});
