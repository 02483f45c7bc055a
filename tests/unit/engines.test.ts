// The Node versions the README promises are the ones the lockfile's packages declare: `npm install`
// on Node 20.19+ must not warn EBADENGINE (issue 29, item 7), and 22/24 must keep working.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const semver = createRequire(import.meta.url)("semver") as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>;
};

/**
 * Packages allowed to require a newer Node, each with the reason it never runs here. Only
 * `prisma dev` (a local Prisma Postgres server the project never starts) loads streams-local; npm's
 * one warning about it is named in the README.
 */
const NEVER_LOADED: Record<string, string> = {
  "node_modules/@prisma/streams-local": "loaded only by `prisma dev`, which the project never runs",
};

function nodeRange(entry: (typeof lock.packages)[string]): string | undefined {
  return Array.isArray(entry.engines) ? undefined : entry.engines?.node;
}

describe("Node engines", () => {
  const minimum = semver.minVersion(pkg.engines.node)!.version;

  it.each([minimum, "20.20.2", "22.13.0", "24.0.0"])("every installed package supports Node %s", (version) => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name && !entry.optional && !(name in NEVER_LOADED))
      .filter(([, entry]) => nodeRange(entry) !== undefined && !semver.satisfies(version, nodeRange(entry)!))
      .map(([name, entry]) => `${name}@${entry.version} wants node ${nodeRange(entry)}`);
    expect(refusing).toEqual([]);
  });

  it("the README states package.json's requirement and the one warning npm still prints", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(pkg.engines.node).toBe(">=20.19");
    expect(readme).toContain("Requires Node.js 20.19+ (22.13+ and 24 work too)");
    for (const name of Object.keys(NEVER_LOADED)) expect(readme).toContain(name.replace("node_modules/", ""));
  });
});
