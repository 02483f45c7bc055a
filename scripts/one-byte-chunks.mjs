// @ts-check
// The production build's server chunks rewritten so V8 can hold their sources one byte per
// character, run by `next build` (next.config.mjs, compiler.runAfterProductionCompile).
//
// V8 keeps the source of every module a server has loaded for the life of the process, and a
// string with a single character above U+00FF is stored at two bytes per character throughout.
// Turbopack writes characters as they are in the code (an em dash in a message, the box-drawing
// rules of schema.prisma inlined into Prisma's client), so half of what an embedded server loaded
// was held twice over (docs/benchmarks.md, "Memory"). Writing those characters as `\uXXXX` escapes
// inside string, template and regular-expression literals, comments and identifiers is the same
// program; the file's source map is shifted to match.
//
// Only where an escape is provably the same program: a file whose wide characters sit in a tagged
// template's raw text, in an astral identifier, between tokens, or that includes U+2028 / U+2029
// (line terminators to V8's line numbering), or that does not parse, is left as it is and reported.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import { Parser, tokTypes as tt } from "acorn";
import { simple } from "acorn-walk";

/** A character V8 cannot store in a one-byte (Latin-1) string. */
const WIDE = /[^\x00-\xff]/g;
const hasWide = (/** @type {string} */ s) => /[^\x00-\xff]/.test(s);

export class NotEscapable extends Error {}

/** @typedef {{ at: number, length: number, text: string }} Edit */
/** @typedef {"string" | "template" | "regexp" | "name" | "comment" | "other"} Kind */

const hex = (/** @type {number} */ unit) => `\\u${unit.toString(16).padStart(4, "0")}`;

/** @param {import("acorn").Token} t @returns {Kind} */
function kindOf(t) {
  if (t.type === tt.string) return "string";
  if (t.type === tt.template || t.type === tt.invalidTemplate) return "template";
  if (t.type === tt.regexp) return "regexp";
  if (t.type === tt.name || t.type === tt.privateId) return "name";
  return "other";
}

/**
 * The file parsed as a script (what Turbopack's server chunks are), else as a module.
 * @param {string} source
 * @param {"script" | "module"} [sourceType]
 */
function parse(source, sourceType) {
  /** @type {unknown} */
  let lastError;
  for (const type of sourceType ? [sourceType] : /** @type {const} */ (["script", "module"])) {
    /** @type {import("acorn").Token[]} */
    const tokens = [];
    /** @type {import("acorn").Comment[]} */
    const comments = [];
    try {
      const ast = Parser.parse(source, {
        ecmaVersion: "latest",
        sourceType: type,
        allowHashBang: true,
        allowReturnOutsideFunction: type === "script",
        onToken: tokens,
        onComment: comments,
      });
      return { ast, tokens, comments, sourceType: type };
    } catch (err) {
      lastError = err;
    }
  }
  throw new NotEscapable(`it does not parse (${/** @type {Error} */ (lastError).message})`);
}

/**
 * The source with every character above U+00FF escaped, and the edits that did it (offsets in the
 * original). Throws NotEscapable where an escape could change the program.
 * @param {string} source
 * @returns {{ code: string, edits: Edit[] }}
 */
export function oneByteSource(source) {
  if (!hasWide(source)) return { code: source, edits: [] };
  if (/[\u2028\u2029]/.test(source)) throw new NotEscapable("it holds U+2028 or U+2029, line terminators to V8");
  const { ast, tokens, comments, sourceType } = parse(source);

  // A tagged template's function sees the raw text, which an escape would change.
  /** @type {Array<[number, number]>} */
  const tagged = [];
  simple(ast, {
    TaggedTemplateExpression(node) {
      for (const q of /** @type {import("acorn").TaggedTemplateExpression} */ (node).quasi.quasis) tagged.push([q.start, q.end]);
    },
  });

  /** @type {Array<{ start: number, end: number, kind: Kind }>} */
  const spans = [
    ...tokens.map((t) => ({ start: t.start, end: t.end, kind: kindOf(t) })),
    ...comments.map((c) => ({ start: c.start, end: c.end, kind: /** @type {Kind} */ ("comment") })),
  ].sort((a, b) => a.start - b.start);
  const spanAt = (/** @type {number} */ i) => {
    let lo = 0;
    let hi = spans.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (spans[mid].start <= i) lo = mid;
      else hi = mid - 1;
    }
    const s = spans[lo];
    return s && s.start <= i && i < s.end ? s : undefined;
  };

  /** @type {Edit[]} */
  const edits = [];
  for (const m of source.matchAll(WIDE)) {
    const i = /** @type {number} */ (m.index);
    const unit = source.charCodeAt(i);
    // Each UTF-16 unit on its own: `\ud83d\ude00` is the pair in strings, templates and both kinds
    // of regular expression alike.
    const text = hex(unit);
    const span = spanAt(i);
    const kind = span?.kind ?? "other";
    if (kind === "other") throw new NotEscapable(`U+${unit.toString(16)} at ${i} is outside any literal, comment or name`);
    if (kind === "name" && unit >= 0xd800 && unit <= 0xdfff) throw new NotEscapable(`an astral character in a name at ${i}`);
    if (kind === "template" && tagged.some(([s, e]) => s <= i && i < e)) throw new NotEscapable(`a tagged template's raw text holds U+${unit.toString(16)} at ${i}`);
    if (kind === "string" || kind === "template" || kind === "regexp") {
      // `\—` is the character itself (an identity escape): the backslash goes with it.
      let slashes = 0;
      while (source.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 1) {
        edits.push({ at: i - 1, length: 2, text });
        continue;
      }
    }
    edits.push({ at: i, length: 1, text });
  }

  let code = "";
  let from = 0;
  for (const e of edits) {
    code += source.slice(from, e.at) + e.text;
    from = e.at + e.length;
  }
  code += source.slice(from);
  sameTokens(tokens, parse(code, sourceType).tokens);
  return { code, edits };
}

/**
 * The escaped file must read as the same tokens with the same values.
 * @param {import("acorn").Token[]} before
 * @param {import("acorn").Token[]} after
 */
function sameTokens(before, after) {
  const differ = (/** @type {string} */ why) => {
    throw new NotEscapable(`the escaped source reads differently (${why})`);
  };
  if (before.length !== after.length) differ(`${before.length} tokens against ${after.length}`);
  for (let k = 0; k < before.length; k++) {
    const a = before[k];
    const b = after[k];
    if (a.type !== b.type) differ(`token ${k} is ${b.type.label}, was ${a.type.label}`);
    if (a.type === tt.regexp) {
      if (a.value.flags !== b.value.flags) differ(`token ${k}'s flags`);
    } else if (a.value !== b.value) differ(`token ${k}'s value`);
  }
}

/**
 * A source map's generated columns moved by the edits (UTF-16 columns, as source maps count them).
 * @param {{ mappings: string }} map
 * @param {string} source the original generated file
 * @param {Edit[]} edits
 */
export function shiftedMap(map, source, edits) {
  /** @type {Map<number, Array<{ col: number, delta: number }>>} */
  const byLine = new Map();
  let line = 0;
  let lineStart = 0;
  let scanned = 0;
  for (const e of edits) {
    for (; scanned < e.at; scanned++) {
      const c = source.charCodeAt(scanned);
      if (c === 0x0a || (c === 0x0d && source.charCodeAt(scanned + 1) !== 0x0a)) {
        line++;
        lineStart = scanned + 1;
      }
    }
    const list = byLine.get(line) ?? [];
    list.push({ col: e.at - lineStart, delta: e.text.length - e.length });
    byLine.set(line, list);
  }
  const lines = decode(map.mappings);
  for (const [l, shifts] of byLine) {
    for (const seg of lines[l] ?? []) {
      let delta = 0;
      for (const s of shifts) if (s.col < seg[0]) delta += s.delta;
      seg[0] += delta;
    }
  }
  return { ...map, mappings: encode(lines) };
}

/**
 * Every .js file under dir rewritten one-byte where it can be, with its .map beside it.
 * @param {string} dir
 */
export function oneByteChunks(dir) {
  const report = { wide: 0, escaped: 0, savedBytes: 0, /** @type {Array<{ file: string, reason: string }>} */ skipped: [] };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(c|m)?js$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const source = readFileSync(file, "utf8");
    if (!hasWide(source)) continue;
    report.wide++;
    try {
      const { code, edits } = oneByteSource(source);
      const mapFile = `${file}.map`;
      if (existsSync(mapFile)) {
        const map = JSON.parse(readFileSync(mapFile, "utf8"));
        if (map.sections?.length) throw new NotEscapable("its source map is an index map");
        if (typeof map.mappings === "string") writeFileSync(mapFile, JSON.stringify(shiftedMap(map, source, edits)));
      }
      writeFileSync(file, code);
      report.escaped++;
      report.savedBytes += 2 * source.length - code.length;
    } catch (err) {
      if (!(err instanceof NotEscapable)) throw err;
      report.skipped.push({ file: path.relative(dir, file), reason: err.message });
    }
  }
  return report;
}
