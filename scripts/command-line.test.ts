// The operator commands' argument parser: ids the service printed are taken as given, even when they
// begin with "-", and a mistyped flag still fails.
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "./command-line";

const FLAGS = { alg: { type: "string" }, force: { type: "boolean", default: false }, verbose: { type: "boolean", short: "v" } } as const;

describe("parseCommandLine", () => {
  it("takes a kid that begins with a dash as the positional it is, in its place", () => {
    const line = parseCommandLine("retire", ["-tQ2x_9aZ", "--force", "second"], FLAGS);
    expect(line.command).toBe("retire");
    expect(line.positionals).toEqual(["-tQ2x_9aZ", "second"]);
    expect(line.values.force).toBe(true);
  });

  it("keeps the value of a string flag that begins with a dash", () => {
    expect(parseCommandLine("rotate", ["--alg", "-x"], FLAGS).values.alg).toBe("-x");
  });

  it("still reads declared short flags, and everything after -- as written", () => {
    const line = parseCommandLine("list", ["-v", "--", "--force", "-v"], FLAGS);
    expect(line.values.verbose).toBe(true);
    expect(line.values.force).toBe(false);
    expect(line.positionals).toEqual(["--force", "-v"]);
  });

  it("refuses an unknown --flag, as before", () => {
    expect(() => parseCommandLine("retire", ["--frobnicate"], FLAGS)).toThrow(/Unknown option '--frobnicate'/);
  });
});
