// A parsed document's "literal shape": the document with each string literal's content replaced by
// the index of its distinct value (first occurrence first), so two documents have the same shape
// exactly when they differ at most in the contents of their string literals and those contents are
// equal and different in the same places. Clients that inline values (the bench's createSubscription
// with a fresh email each time, generated code, ad-hoc scripts) send a new document text every
// request; what does not depend on a string literal's content can be computed once per shape:
// validation (validation-cache.ts) and the operation's cost (operation-limits.ts).
//
// The key is the AST written out without `loc` (locations only place error messages, and only
// results without errors are reused), in a prefix-free (so injective) encoding: same key, same tree,
// the same names, the same int/float/enum/boolean literals, the same `block` flag on each string,
// the same equalities between string contents.
import { Kind, type DocumentNode } from "graphql";

/** Longest key kept: a 50-mutation batch with full selections is about 25,000 characters. */
export const MAX_SHAPE_CHARS = 64 * 1024;

// Per parsed document (yoga's parse cache hands the same DocumentNode for the same text); "" marks
// a document whose shape is too long to be worth keeping.
const shapes = new WeakMap<DocumentNode, string>();

/** The document's literal shape, or undefined when it is longer than MAX_SHAPE_CHARS. */
export function literalShape(document: DocumentNode): string | undefined {
  let shape = shapes.get(document);
  if (shape === undefined) {
    shape = computeShape(document);
    if (shape.length > MAX_SHAPE_CHARS) shape = "";
    shapes.set(document, shape);
  }
  return shape === "" ? undefined : shape;
}

function computeShape(document: DocumentNode): string {
  const classes = new Map<string, number>();
  // A prefix-free encoding of the tree: objects {key:value,…} (AST property names are identifiers),
  // arrays […,], strings JSON-quoted, undefined as u, other scalars as String() gives them; a string
  // literal as {S<index>} or {S<index>b} for a block string.
  const write = (value: unknown): string => {
    if (value === null || typeof value !== "object") {
      return typeof value === "string" ? JSON.stringify(value) : value === undefined ? "u" : String(value);
    }
    if (Array.isArray(value)) {
      let out = "[";
      for (const item of value) out += write(item) + ",";
      return out + "]";
    }
    const node = value as Record<string, unknown>;
    if (node.kind === Kind.STRING) {
      const text = node.value as string;
      let index = classes.get(text);
      if (index === undefined) classes.set(text, (index = classes.size));
      return node.block === true ? `{S${index}b}` : `{S${index}}`;
    }
    let out = "{";
    for (const key in node) if (key !== "loc") out += key + ":" + write(node[key]) + ",";
    return out + "}";
  };
  return write(document);
}
