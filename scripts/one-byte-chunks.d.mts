// Types of ./one-byte-chunks.mjs (plain JavaScript: next.config.mjs imports it during the build).
export class NotEscapable extends Error {}
export interface Edit {
  at: number;
  length: number;
  text: string;
}
export function oneByteSource(source: string): { code: string; edits: Edit[] };
export function shiftedMap<M extends { mappings: string }>(map: M, source: string, edits: Edit[]): M;
export function oneByteChunks(dir: string): { wide: number; escaped: number; savedBytes: number; skipped: Array<{ file: string; reason: string }> };
