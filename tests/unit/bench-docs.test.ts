// `npm run bench -- --quick` is documented in three places (the bench's --help, README's and
// docs/benchmarks.md's command lists); they must say the same, measured duration (issue 29, item 11:
// the docs said one minute where a quick run took about two).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The duration a text gives for --quick, e.g. "~2–3 minutes". */
function quickClaim(text: string): string | undefined {
  return /--quick`?\s+[#(]?\s*(~[\d–-]+ minutes?)/.exec(text)?.[1];
}

describe("the quick bench's documented duration", () => {
  it("is the same in the bench's --help, README and docs/benchmarks.md, and not the old one minute", () => {
    const claims = ["bench/options.ts", "README.md", "docs/benchmarks.md"].map((f) => [f, quickClaim(read(f))] as const);
    for (const [file, claim] of claims) expect(claim, file).toBeDefined();
    expect(new Set(claims.map(([, c]) => c)).size).toBe(1);
    expect(claims[0]![1]).not.toBe("~1 minute");
  });
});
