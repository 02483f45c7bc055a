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

/** "issue 26", "Issue 24/30", "issues 24 and 30", "issue #12": a tracker reference. */
const ISSUE_REFERENCE = /\bissues? #?\d/i;

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

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    const h = fence ? null : /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const slug = h[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

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

  // A reader cannot see the tracker: a rule says what holds and why, history is in git.
  it("names no issue numbers (a rule reads on its own)", () => {
    const found: string[] = [];
    for (const file of FILES) {
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (ISSUE_REFERENCE.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
    expect(["(issue 30, item 2)", "Issue 26's target", "issues 24 and 30", "issue #12"].every((t) => ISSUE_REFERENCE.test(t))).toBe(true);
    expect(["the issuer", "an issue of the key", "RFC 7662"].some((t) => ISSUE_REFERENCE.test(t))).toBe(false);
  });

  it("links to another file's heading point at a heading it has", () => {
    const broken: string[] = [];
    for (const file of FILES) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(/\]\(([\w./-]+\.md)#([^)\s]+)\)/g)) {
        const target = path.join(path.dirname(path.join(ROOT, file)), m[1]!);
        if (!headingAnchors(readFileSync(target, "utf8")).has(m[2]!)) broken.push(`${file}: ${m[1]}#${m[2]}`);
      }
    }
    expect(broken).toEqual([]);
    const sample = headingAnchors("# A\n\n### Content as files (`npm run school -- import|export`)\n\n```sh\n# not a heading\n```\n\n## A\n");
    expect([...sample]).toEqual(["a", "content-as-files-npm-run-school----importexport", "a-1"]);
  });

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

  it("docs/deploy.md: only blocks that need the production database, rebuild the app or start the server, each saying why", () => {
    const blocks = shellBlocks(readFileSync(path.join(ROOT, "docs/deploy.md"), "utf8"), "docs/deploy.md");
    const marked = blocks.filter((x) => x.runsIn);
    for (const b of marked) {
      expect(b.runsIn, `docs/deploy.md:${b.line}`).toBe("production");
      expect(b.reason, `docs/deploy.md:${b.line}: say why next to the marker`).toMatch(/\w{3,}.*\w{3,}/);
      expect(b.code, `docs/deploy.md:${b.line}`).toMatch(/DATABASE_URL_UNPOOLED|npm ci|npm run build|npm run serve|--school acme/);
    }
    // What a local Postgres and the suite's server can run, the suite runs: migration, keys, health, cron.
    const run = blocks.filter((x) => !x.runsIn).map((b) => b.code).join("\n");
    for (const command of ["npm run db:migrate", "npm run keys", "/api/health", "/api/cron/subscriptions", "openssl rand"]) {
      expect(run, command).toContain(command);
    }
  });

  it("a marker's reason is read, and a marker without one has none", () => {
    const md = "<!-- runs-in: production: needs the production database -->\n```sh\nls\n```\n\n<!-- runs-in: ci -->\n```sh\npwd\n```\n";
    expect(shellBlocks(md, "x.md").map((b) => [b.runsIn, b.reason])).toEqual([
      ["production", "needs the production database"],
      ["ci", undefined],
    ]);
  });

  it("an unclosed fence is an error", () => {
    expect(() => shellBlocks("a\n\n```sh\nls\n", "x.md")).toThrow("x.md:3: this code fence is never closed");
  });
});
