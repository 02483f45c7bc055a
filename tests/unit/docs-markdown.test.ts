// The project's own markdown (README.md, CODE_STYLE.md, docs/*.md) passes markdownlint, plus one rule
// of ours: no fence inside a code block, which is what an unclosed fence leaves behind (the rest of
// the file renders as code until the next bare fence closes it). Also the shell-block contract of
// tests/e2e/docs-shell.spec.ts: which blocks it may leave to others.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Configuration, Rule } from "markdownlint";
import { lint } from "markdownlint/promise";
import { describe, expect, it } from "vitest";
import { shellBlocks } from "../helpers/shell-blocks";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FILES = ["README.md", "CODE_STYLE.md", ...readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

const RULES: Configuration = {
  default: true,
  // Prose is wrapped by hand near 100 columns; tables and commands cannot wrap.
  MD013: false,
  // Table pipes are not aligned: the tables are edited by hand and diffs stay one row.
  MD060: false,
};

/** A line inside a fenced code block that opens a fence itself: the block above it was left open. */
export const fenceInCodeBlock: Rule = {
  names: ["fence-in-code-block"],
  description: "A code fence inside a code block (an earlier fence is not closed)",
  tags: ["code"],
  parser: "micromark",
  function(params, onError) {
    for (const token of params.parsers.micromark.tokens) {
      if (token.type !== "codeFenced") continue;
      const closed = token.children.filter((c) => c.type === "codeFencedFence").length === 2;
      for (let line = token.startLine + 1; line < (closed ? token.endLine : token.endLine + 1); line++) {
        if (/^\s*(`{3,}|~{3,})\S/.test(params.lines[line - 1] ?? "")) {
          onError({ lineNumber: line, detail: `the fence opened on line ${token.startLine} is not closed before it` });
        }
      }
      if (!closed) onError({ lineNumber: token.startLine, detail: "this fence is never closed" });
    }
  },
};

async function problems(options: { files?: string[]; strings?: Record<string, string> }): Promise<string[]> {
  const results = await lint({ ...options, config: RULES, customRules: [fenceInCodeBlock] });
  return Object.entries(results).flatMap(([file, list]) =>
    list.map((e) => `${file}:${e.lineNumber} ${e.ruleNames.join("/")} ${e.ruleDescription}${e.errorDetail ? `: ${e.errorDetail}` : ""}`),
  );
}

describe("the project's markdown", () => {
  it("passes markdownlint and the fence rule", async () => {
    expect(await problems({ files: FILES.map((f) => path.join(ROOT, f)) })).toEqual([]);
  }, 60_000);

  it("the fence rule catches a block left open before the next section's block", async () => {
    const sample = "# T\n\n```sh\ncurl a\n\n## Next\n\n```sh\ncurl b\n```\n\nText.\n";
    expect(await problems({ strings: { sample } })).toEqual([
      expect.stringMatching(/^sample:8 fence-in-code-block .*line 3/),
    ]);
    expect(await problems({ strings: { sample: "# T\n\n```sh\ncurl a\n" } })).toEqual([expect.stringMatching(/^sample:3 fence-in-code-block .*never closed/)]);
  });
});

describe("shell blocks the docs suite does not run itself", () => {
  it("README: only the two top commands, which CI runs itself (npm test builds, starts the server and runs every test)", () => {
    const marked = shellBlocks(readFileSync(path.join(ROOT, "README.md"), "utf8"), "README.md").filter((b) => b.runsIn);
    expect(marked.map((b) => [b.runsIn, b.code.trim()])).toEqual([
      ["ci", "npm install && npm start"],
      ["ci", "npm test"],
    ]);
  });

  it("docs/deploy.md: only blocks that need the production database or rebuild the app", () => {
    const blocks = shellBlocks(readFileSync(path.join(ROOT, "docs/deploy.md"), "utf8"), "docs/deploy.md");
    for (const b of blocks.filter((x) => x.runsIn)) {
      expect(b.runsIn, `docs/deploy.md:${b.line}`).toBe("production");
      expect(b.code, `docs/deploy.md:${b.line}`).toMatch(/DATABASE_URL_UNPOOLED|npm ci|npm run build|--school acme/);
    }
  });

  it("an unclosed fence is an error", () => {
    expect(() => shellBlocks("a\n\n```sh\nls\n", "x.md")).toThrow("x.md:3: this code fence is never closed");
  });
});
