// fast-check generates up to the bounds our properties declare (tests/setup/fast-check.ts): without
// the setup file, fast-check 4's default "small" size stops `fc.string({ maxLength: 300 })` at about
// 10 characters and the fuzz suites never meet a long input (docs/decisions.md, "The hostile-input
// fuzz suite").
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";

const longest = (values: { length: number }[]) => Math.max(...values.map((v) => v.length));

describe("fast-check's global configuration", () => {
  it("is set in this project: a declared maxLength is the generated one", () => {
    expect(fc.readConfigureGlobal().defaultSizeToMaxWhenMaxSpecified).toBe(true);
    expect(longest(fc.sample(fc.string({ maxLength: 300 }), { numRuns: 2000, seed: 1 }))).toBeGreaterThan(100);
    expect(longest(fc.sample(fc.array(fc.nat(), { maxLength: 25 }), { numRuns: 2000, seed: 1 }))).toBeGreaterThan(20);
    expect(longest(fc.sample(fc.uint8Array({ maxLength: 500 }), { numRuns: 2000, seed: 1 }))).toBeGreaterThan(100);
    // Unbounded arbitraries keep the small default, and an explicit size still wins.
    expect(longest(fc.sample(fc.string(), { numRuns: 2000, seed: 1 }))).toBeLessThanOrEqual(20);
    expect(longest(fc.sample(fc.string({ maxLength: 300, size: "small" }), { numRuns: 2000, seed: 1 }))).toBeLessThanOrEqual(20);
  });

  it("is the first setup file of every Vitest project (integration-pg and redis included)", async () => {
    // Those two projects exist only when their servers are named: name them, then read the config.
    vi.stubEnv("TEST_DATABASE_URL", "postgresql://unused/unused");
    vi.stubEnv("REDIS_URL", "redis://unused");
    try {
      vi.resetModules();
      const config = (await import("../../vitest.config")).default as { test: { projects: unknown[] } };
      const projects = config.test.projects as { test: { name: string; setupFiles?: string[] } }[];
      expect(projects.map((p) => p.test.name)).toEqual(expect.arrayContaining(["unit", "integration", "integration-pg", "redis"]));
      for (const project of projects) {
        expect({ project: project.test.name, first: project.test.setupFiles?.[0] }).toEqual({
          project: project.test.name,
          first: "tests/setup/fast-check.ts",
        });
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
