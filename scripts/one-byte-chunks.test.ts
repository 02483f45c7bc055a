// Server chunks escaped to one byte per character (scripts/one-byte-chunks.mjs): the escaped file is
// the same program, its source map still points at the same code, and what cannot be escaped
// without changing the program is left as it is. The production build's chunks are checked after
// `next build` (tests/e2e/production-entry.spec.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { NotEscapable, oneByteChunks, oneByteSource, shiftedMap } from "./one-byte-chunks.mjs";

const oneByte = (s: string) => !/[^\x00-\xff]/.test(s);
/** What a CommonJS chunk exports, run in a fresh context. */
function run(source: string): unknown {
  const context = { module: { exports: {} as unknown } };
  vm.runInNewContext(source, context);
  return context.module.exports;
}

describe("oneByteSource", () => {
  it("escapes strings, templates, regular expressions, comments and names into the same program", () => {
    const source = [
      "// ─── Tenancy ───",
      "/* a block comment — with “quotes” */",
      'const π = 3, dash = "a — b", ellipsis = \'…\', same = "\\—", kept = "café";',
      "const t = `${dash} → ${π} ✓`;",
      "const r = /[─-╿]+/, u = /😀+/u, cls = /[😀]/u, v = /\\—/;",
      'const emoji = "😀 \\😀";',
      "module.exports = { π, dash, ellipsis, same, kept, t, emoji,",
      '  r: r.exec("x──y")[0], u: u.exec("a😀😀")[0], cls: cls.test("😀"), v: v.test("—"), len: "😀".length };',
    ].join("\n");
    const { code, edits } = oneByteSource(source);
    expect(oneByte(code)).toBe(true);
    expect(edits.length).toBeGreaterThan(10);
    expect(code).toContain("caf\u00e9");
    expect(run(code)).toEqual(run(source));
    expect(run(code)).toMatchObject({ same: "—", emoji: "😀 😀", r: "──", u: "😀😀", cls: true, v: true, len: 2 });
  });

  it("leaves a source without wide characters as it is", () => {
    const source = 'module.exports = "plain, café";';
    expect(oneByteSource(source)).toEqual({ code: source, edits: [] });
  });

  it("refuses what an escape could change", () => {
    const refused = {
      "a tagged template (its raw text)": "const tag = (s) => s.raw[0]; module.exports = tag`—`;",
      "an astral name": "var 𝑥 = 1;",
      "a wide space between tokens": "var a\u3000= 1;",
      "U+2028 in a string": 'var a = "\u2028";',
      "a syntax error": 'var a = "—" +;',
    };
    for (const [what, source] of Object.entries(refused)) {
      expect(() => oneByteSource(source), what).toThrow(NotEscapable);
    }
  });

  it("keeps any string, template text and line comment (property)", () => {
    const text = fc.string({ unit: "grapheme", maxLength: 40 }).filter((s) => !/[\u2028\u2029\r\n]/.test(s));
    fc.assert(
      fc.property(text, (s) => {
        const template = s.replace(/[\\`$]/g, (c) => `\\${c}`);
        const source = `// ${s}\nmodule.exports = [${JSON.stringify(s)}, \`${template}\`, ${JSON.stringify({ [s]: s })}];`;
        const { code } = oneByteSource(source);
        expect(oneByte(code)).toBe(true);
        expect(run(code)).toEqual([s, s, { [s]: s }]);
      }),
      { seed: 20261128, numRuns: 300 },
    );
  });
});

describe("shiftedMap", () => {
  it("moves generated columns past each escape on their line", () => {
    const source = 'var a="——",b=1;\nvar c="…",d=2;';
    const { code, edits } = oneByteSource(source);
    // Segments at `var`, `a`, `b` on line 0 and `var`, `d` on line 1, each to its own source column.
    const segments = [
      [
        [0, 0, 0, 0],
        [4, 0, 0, 4],
        [11, 0, 0, 11],
      ],
      [
        [0, 0, 1, 0],
        [10, 0, 1, 10],
      ],
    ] as [number, number, number, number][][];
    const map = shiftedMap({ mappings: encode(segments) }, source, edits);
    const lines = decode(map.mappings);
    const before = source.split("\n");
    const after = code.split("\n");
    segments.forEach((line, l) =>
      line.forEach(([at, ...rest], k) => {
        const [moved, ...movedRest] = lines[l]![k]!;
        expect(after[l]!.slice(moved, moved + 3)).toBe(before[l]!.slice(at, at + 3));
        expect(movedRest).toEqual(rest);
      }),
    );
  });
});

describe("oneByteChunks", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "one-byte-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("rewrites the chunks and their maps, and reports the ones it leaves", () => {
    writeFileSync(path.join(dir, "a.js"), 'module.exports = "→";\n');
    writeFileSync(path.join(dir, "a.js.map"), JSON.stringify({ version: 3, sources: ["a.ts"], names: [], mappings: encode([[[0, 0, 0, 0], [17, 0, 0, 17], [20, 0, 0, 18]]]) }));
    writeFileSync(path.join(dir, "tagged.js"), "module.exports = String.raw`—`;\n");
    writeFileSync(path.join(dir, "plain.js"), "module.exports = 1;\n");
    const report = oneByteChunks(dir);
    expect(report).toMatchObject({ wide: 2, escaped: 1, skipped: [{ file: "tagged.js" }] });
    expect(report.savedBytes).toBe(2 * 'module.exports = "→";\n'.length - 'module.exports = "\\u2192";\n'.length);
    expect(readFileSync(path.join(dir, "a.js"), "utf8")).toBe('module.exports = "\\u2192";\n');
    expect(decode(JSON.parse(readFileSync(path.join(dir, "a.js.map"), "utf8")).mappings)).toEqual([[[0, 0, 0, 0], [17, 0, 0, 17], [25, 0, 0, 18]]]);
    expect(readFileSync(path.join(dir, "tagged.js"), "utf8")).toBe("module.exports = String.raw`—`;\n");
  });
});
