// Types of ./prisma-compiler-wasm.mjs (plain JavaScript: the install runs it before any TypeScript
// tool is set up).
export class CompilerWasmFormatError extends Error {}
export const COMPILER_WASM_FILE: string;
export function runtimeModuleBase64(source: string): string;
export function generatedCompilerModule(source: string): string | null;
export function withFileLoader(source: string): string;
export function externalizeCompilerWasm(file: string): { changed: boolean; bytes: number };
