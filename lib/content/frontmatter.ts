import matter from "gray-matter";
import { isMap, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import type { ContentProblem } from "./errors";

// Frontmatter is YAML 1.2 (core schema): dates stay strings and `yes` stays a string, so what a
// file says is what the schema checks. gray-matter splits the file; `yaml` parses it so that every
// value keeps its position and problems can name their line.
const YAML_OPTIONS = { schema: "core", prettyErrors: true, uniqueKeys: true } as const;

export interface ParsedFile {
  data: unknown;
  body: string;
  /** The 1-based line in the file of a field (or the closest parent that exists). */
  lineOf(path: readonly PropertyKey[]): number;
}

function lineLocator(doc: Document | null, counter: LineCounter, offset: number) {
  return (path: readonly PropertyKey[]): number => {
    if (!doc) return 1;
    for (let n = path.length; n > 0; n--) {
      const keys = path.slice(0, n).map((k) => (typeof k === "symbol" ? String(k) : k));
      const parent = n > 1 ? doc.getIn(keys.slice(0, -1), true) : doc.contents;
      const last = keys[keys.length - 1];
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
        const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
        if (range) return counter.linePos(range[0]).line + offset;
      }
      const node = doc.getIn(keys, true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return counter.linePos(node.range[0]).line + offset;
    }
    return 1;
  };
}

/** Parses YAML text (school.yaml, or a frontmatter block starting `offset` lines into its file). */
export function parseYamlText(text: string, file: string, offset = 0): { data: unknown; lineOf: ParsedFile["lineOf"] } | ContentProblem {
  const counter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter: counter });
  const err = doc.errors[0];
  if (err) {
    const line = (err.linePos?.[0]?.line ?? 1) + offset;
    return { file, line, field: null, message: `invalid YAML: ${err.message.split("\n")[0]}` };
  }
  let data: unknown;
  try {
    // maxAliasCount bounds alias expansion (a "billion laughs" file); an unresolved alias throws.
    data = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    return { file, line: 1 + offset, field: null, message: `invalid YAML: ${(err as Error).message.split("\n")[0]}` };
  }
  return { data, lineOf: lineLocator(doc, counter, offset) };
}

/** Splits a markdown file into its YAML frontmatter and body. */
export function parseMarkdownFile(text: string, file: string): ParsedFile | ContentProblem {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (!source.startsWith("---\n") && source.trim() !== "") {
    return { file, line: 1, field: null, message: "must start with a YAML frontmatter block (a line `---`)" };
  }
  let split: { matter: string; content: string };
  try {
    // Any options object turns gray-matter's content cache off; the engine only splits.
    split = matter(source, { engines: { yaml: () => ({}) } });
  } catch (err) {
    return { file, line: 1, field: null, message: `cannot read the frontmatter: ${(err as Error).message.split("\n")[0]}` };
  }
  // gray-matter's `matter` starts right after the opening `---`, so its line n is the file's line n.
  const yaml = parseYamlText(split.matter, file, 0);
  if ("message" in yaml) return yaml;
  return { data: yaml.data, lineOf: yaml.lineOf, body: split.content.replace(/^\n/, "") };
}
