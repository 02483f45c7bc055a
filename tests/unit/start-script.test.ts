// `npm start` is the README's demo command: the embedded database seeded with published
// credentials. It must not be reachable from other machines.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const scripts = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")).scripts as Record<string, string>;

describe("package.json start scripts", () => {
  it("npm start serves the demo on the loopback address only", () => {
    const serve = scripts.start!.split("&&").map((s) => s.trim()).find((s) => s.startsWith("next start"));
    expect(serve).toBeDefined();
    expect(serve!.split(/\s+/)).toEqual(expect.arrayContaining(["--hostname", "127.0.0.1"]));
  });

  it("npm run serve, the deployment command, binds as the deployment says (no hostname forced)", () => {
    expect(scripts.serve).toBe("next start");
  });
});
