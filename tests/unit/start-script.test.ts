// `npm start` is the README's demo command: the embedded database seeded with published
// credentials. It must not be reachable from other machines.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const scripts = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")).scripts as Record<string, string>;

describe("package.json start scripts", () => {
  // "localhost", not "127.0.0.1": with any other -H, Next 16 builds proxy.ts's request.url on
  // "localhost" but compares rewrites with the listening address, so every proxy rewrite (the HTML
  // page cache, markdown negotiation) would be proxied over HTTP back into the server and the
  // storefront pages would answer 404 (docs/decisions.md, "No secret anyone else knows").
  it("npm start serves the demo on the loopback address only", () => {
    const serve = scripts.start!.split("&&").map((s) => s.trim()).find((s) => s.includes("server/start.mjs"));
    expect(serve).toBeDefined();
    expect(serve!.split(/\s+/)).toEqual(expect.arrayContaining(["--hostname", "localhost"]));
  });

  it("npm run serve, the deployment command, binds as the deployment says (no hostname forced)", () => {
    expect(scripts.serve).toMatch(/ server\/start\.mjs$/);
    expect(scripts.serve).not.toMatch(/--hostname|\s-H\b/);
  });
});
