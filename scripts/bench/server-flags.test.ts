import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "./server";

// The bench measures the server as the documented start commands run it.
describe("bench server flags", () => {
  it("match the environment and V8 flags of npm start and npm run serve", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    const env = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`);
    for (const name of ["start", "serve"]) {
      expect(scripts[name], name).toContain([...env, "node", ...SERVER_NODE_FLAGS, "node_modules/next/dist/bin/next start"].join(" "));
    }
  });
});
