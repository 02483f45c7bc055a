// Takes the generated client's query compiler out of JavaScript: writes its WebAssembly bytes beside
// the client and makes the client compile them from that file (docs/benchmarks.md, "Memory").
//
// Why: as generated, the client imports the compiler from a module whose whole content is one
// base64 string (2.3 MB). An ES module is never unloaded, so every process held that string twice
// for its whole life, as the module's source and as the value it exports: 4.4 MB of each server's
// heap, the largest strings in it. Read from a file, the bytes are garbage once compiled.
//
// The bytes are the ones Prisma ships: decoded from the runtime module the generated loader names,
// and checked to be a WebAssembly module before the loader is changed. A client whose loader does
// not read as expected is left as generated (it works, only larger) and the test fails.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export class CompilerWasmFormatError extends Error {}

/** The file the rewritten loader reads, beside the generated internal/class.ts. */
export const COMPILER_WASM_FILE = "query-compiler.wasm";

// The loader as Prisma 7's prisma-client generator writes it; group 1 is the runtime module.
const GENERATED_LOADER =
  /( *)getQueryCompilerWasmModule: async \(\) => \{\n\s*const \{ wasm \} = await import\("(@prisma\/client\/runtime\/[\w.-]+\.wasm-base64\.m?js)"\)\n\s*return await decodeBase64AsWasm\(wasm\)\n\s*\},/;

const MARKER = "scripts/prisma-compiler-wasm.mjs";

/**
 * The loader that compiles the file beside the client. The path is built from the module's own URL
 * rather than `new URL(…, import.meta.url)`, which Turbopack would turn into a public asset URL in
 * the pages' server layer.
 * @param {string} indent
 */
function fileLoader(indent) {
  const i = (n) => indent + "  ".repeat(n);
  return [
    `${i(0)}getQueryCompilerWasmModule: async () => {`,
    `${i(1)}// ${MARKER}: the compiler's bytes from the file beside this one, not a base64 module held for good`,
    `${i(1)}const { readFile } = await import("node:fs/promises")`,
    `${i(1)}const { fileURLToPath } = await import("node:url")`,
    `${i(1)}const { dirname, join } = await import("node:path")`,
    `${i(1)}const file = join(dirname(fileURLToPath(import.meta.url)), /*turbopackIgnore: true*/ "${COMPILER_WASM_FILE}")`,
    `${i(1)}return new WebAssembly.Module(await readFile(file))`,
    `${i(0)}},`,
  ].join("\n");
}

/**
 * The base64 string a Prisma runtime module exports (`const wasm = "…"`).
 * @param {string} source
 * @returns {string}
 */
export function runtimeModuleBase64(source) {
  const match = /^const wasm = "([A-Za-z0-9+/]+={0,2})";?$/m.exec(source);
  if (!match) throw new CompilerWasmFormatError("the runtime module exports no base64 string");
  return match[1];
}

/**
 * Where a generated client loads its compiler from: the runtime module it imports, or null when the
 * loader was already rewritten.
 * @param {string} source
 * @returns {string | null}
 */
export function generatedCompilerModule(source) {
  const match = GENERATED_LOADER.exec(source);
  if (match) return match[2];
  if (source.includes(MARKER)) return null;
  throw new CompilerWasmFormatError("the client's getQueryCompilerWasmModule is not the one expected");
}

/**
 * The client's source with the loader that reads the file beside it.
 * @param {string} source
 */
export function withFileLoader(source) {
  if (!GENERATED_LOADER.test(source)) throw new CompilerWasmFormatError("the client's getQueryCompilerWasmModule is not the one expected");
  return source.replace(GENERATED_LOADER, (_, indent) => fileLoader(indent));
}

/**
 * Writes the compiler beside a generated client's internal/class.ts and points its loader there.
 * The bytes are written before the loader is changed, so no state reads a file that is not there.
 * @param {string} file internal/class.ts
 * @returns {{ changed: boolean, bytes: number }}
 */
export function externalizeCompilerWasm(file) {
  const source = readFileSync(file, "utf8");
  const specifier = generatedCompilerModule(source);
  const target = path.join(path.dirname(file), COMPILER_WASM_FILE);
  if (specifier === null) return { changed: false, bytes: readFileSync(target).length };
  const runtime = createRequire(file).resolve(specifier);
  const bytes = Buffer.from(runtimeModuleBase64(readFileSync(runtime, "utf8")), "base64");
  if (!WebAssembly.validate(bytes)) throw new CompilerWasmFormatError(`${specifier} does not decode to a WebAssembly module`);
  writeFileSync(target, bytes);
  writeFileSync(file, withFileLoader(source));
  return { changed: true, bytes: bytes.length };
}
