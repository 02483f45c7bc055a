import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "./server";

// The bench measures the server as the documented start commands run it.
describe("bench server flags", () => {
  it("match the V8 flags of npm start and npm run serve", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    for (const name of ["start", "serve"]) {
      for (const flag of SERVER_NODE_FLAGS) expect(scripts[name], name).toContain(`node ${flag} node_modules/next/dist/bin/next start`);
    }
  });
});
