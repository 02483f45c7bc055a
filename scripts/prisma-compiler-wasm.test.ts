// The client's query compiler read from a file (scripts/prisma-compiler-wasm.mjs). That the loader
// works is shown by every test that queries the database: they all go through the installed client.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  COMPILER_WASM_FILE,
  CompilerWasmFormatError,
  externalizeCompilerWasm,
  generatedCompilerModule,
  runtimeModuleBase64,
  withFileLoader,
} from "./prisma-compiler-wasm.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLIENT = path.join(ROOT, "lib/db/generated/internal/class.ts");
const RUNTIME_MODULE = "@prisma/client/runtime/query_compiler_small_bg.postgresql.wasm-base64.mjs";

// The loader as Prisma 7.10's prisma-client generator writes it (compilerBuild = "small").
const GENERATED_LOADER = `config.compilerWasm = {
  getRuntime: async () => await import("@prisma/client/runtime/query_compiler_small_bg.postgresql.mjs"),

  getQueryCompilerWasmModule: async () => {
    const { wasm } = await import("${RUNTIME_MODULE}")
    return await decodeBase64AsWasm(wasm)
  },

  importName: "./query_compiler_small_bg.js"
}
`;

const shipped = () => Buffer.from(runtimeModuleBase64(readFileSync(createRequire(CLIENT).resolve(RUNTIME_MODULE), "utf8")), "base64");

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** A folder inside the project, so the client's imports resolve as they do for the real one. */
function scratch(): string {
  const parent = path.join(ROOT, "node_modules/.cache");
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, "compiler-wasm-"));
  dirs.push(dir);
  return dir;
}

describe("the installed client's query compiler", () => {
  it("is read from the file beside the client, not imported as base64", () => {
    const source = readFileSync(CLIENT, "utf8");
    expect(source).not.toContain("wasm-base64");
    expect(generatedCompilerModule(source)).toBeNull();
    expect(source).toContain(`"${COMPILER_WASM_FILE}"`);
  });

  it("is the module Prisma ships, byte for byte, and compiles", () => {
    const bytes = readFileSync(path.join(path.dirname(CLIENT), COMPILER_WASM_FILE));
    expect(bytes.equals(shipped())).toBe(true);
    const exports = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
    expect(exports).toContain("__wbindgen_start");
  });

  it("ships with the server's output (next.config.mjs traces the file)", () => {
    expect(readFileSync(path.join(ROOT, "next.config.mjs"), "utf8")).toContain(`./lib/db/generated/internal/${COMPILER_WASM_FILE}`);
  });
});

describe("externalizeCompilerWasm", () => {
  it("writes the compiler beside a generated client, rewrites only its loader, and a second run changes nothing", () => {
    const dir = scratch();
    const file = path.join(dir, "class.ts");
    const before = `// head\n${GENERATED_LOADER}// tail\n`;
    writeFileSync(file, before);
    expect(externalizeCompilerWasm(file)).toEqual({ changed: true, bytes: shipped().length });
    expect(readFileSync(path.join(dir, COMPILER_WASM_FILE)).equals(shipped())).toBe(true);
    const after = readFileSync(file, "utf8");
    expect(after).toBe(withFileLoader(before));
    expect(after.startsWith("// head\nconfig.compilerWasm = {\n  getRuntime:")).toBe(true);
    expect(after.endsWith(`  importName: "./query_compiler_small_bg.js"\n}\n// tail\n`)).toBe(true);
    expect(after).not.toContain("wasm-base64");
    expect(externalizeCompilerWasm(file)).toEqual({ changed: false, bytes: shipped().length });
    expect(readFileSync(file, "utf8")).toBe(after);
  });

  it("leaves a client whose loader is not the expected one untouched, and writes no file", () => {
    const dir = scratch();
    const file = path.join(dir, "class.ts");
    const other = GENERATED_LOADER.replace("decodeBase64AsWasm(wasm)", "somethingElse(wasm)");
    writeFileSync(file, other);
    expect(() => externalizeCompilerWasm(file)).toThrow(CompilerWasmFormatError);
    expect(readFileSync(file, "utf8")).toBe(other);
    expect(existsSync(path.join(dir, COMPILER_WASM_FILE))).toBe(false);
  });

  it("refuses a runtime module without the base64 string", () => {
    expect(() => runtimeModuleBase64("export const wasm = undefined\n")).toThrow(CompilerWasmFormatError);
    expect(runtimeModuleBase64('const wasm = "AGFzbQEAAAA=";\nexport { wasm }\n')).toBe("AGFzbQEAAAA=");
  });
});
