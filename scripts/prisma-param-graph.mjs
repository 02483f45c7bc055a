// Renumbers the string table of the generated client's parameterization graph so the names used as
// edge keys get the smallest numbers, most used first (docs/benchmarks.md, "Memory").
//
// Why: Prisma's client turns the graph into one object per node, `edges[stringIndex] = edge`. V8
// gives an object whose first integer key is n a flat element store of about 1.5 n slots, so a
// node whose keys are strings 540 and 560 of the table holds ~850 slots for its two entries. With
// 3,425 input nodes that was 15 MB of every server's heap. The numbers are only references into
// the table the graph ships with, so a permutation of the table, applied to every reference, is the
// same graph: compactParamGraph checks that by decoding the result and comparing it by name.
//
// The wire format is Prisma's (param-graph/src/serialization.ts in @prisma/client 7.x): base64url
// of three varuint counts, then input nodes (varuint edge count; per edge varuint field, u16 scalar
// mask, optional varuint child node, optional varuint enum name, u8 flags), output nodes (varuint
// edge count; per edge varuint field, optional varuint args node, optional varuint output node) and
// roots (varuint key, optional varuint args node, optional varuint output node); an optional
// varuint is 0 for none, else value + 1.
import { readFileSync, writeFileSync } from "node:fs";

/** @typedef {{ field: number, scalarMask: number, child: number | undefined, enumName: number | undefined, flags: number }} InputEdge */
/** @typedef {{ field: number, args: number | undefined, output: number | undefined }} OutputEdge */
/** @typedef {{ key: number, args: number | undefined, output: number | undefined }} Root */
/** @typedef {{ inputNodes: InputEdge[][], outputNodes: OutputEdge[][], roots: Root[] }} Graph */

export class ParamGraphFormatError extends Error {}

/** @param {string} base64url @returns {Graph} */
export function decodeParamGraph(base64url) {
  const bytes = Buffer.from(base64url, "base64url");
  let at = 0;
  const byte = () => {
    if (at >= bytes.length) throw new ParamGraphFormatError("the graph ends early");
    return bytes[at++];
  };
  const varuint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (shift > 28) throw new ParamGraphFormatError("a varuint is too long");
      const b = byte();
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
  };
  const optional = () => {
    const v = varuint();
    return v === 0 ? undefined : v - 1;
  };
  const inputCount = varuint();
  const outputCount = varuint();
  const rootCount = varuint();
  /** @type {Graph} */
  const graph = { inputNodes: [], outputNodes: [], roots: [] };
  for (let i = 0; i < inputCount; i++) {
    const edges = [];
    for (let n = varuint(); n > 0; n--) {
      const field = varuint();
      const scalarMask = byte() | (byte() << 8);
      edges.push({ field, scalarMask, child: optional(), enumName: optional(), flags: byte() });
    }
    graph.inputNodes.push(edges);
  }
  for (let i = 0; i < outputCount; i++) {
    const edges = [];
    for (let n = varuint(); n > 0; n--) edges.push({ field: varuint(), args: optional(), output: optional() });
    graph.outputNodes.push(edges);
  }
  for (let i = 0; i < rootCount; i++) graph.roots.push({ key: varuint(), args: optional(), output: optional() });
  if (at !== bytes.length) throw new ParamGraphFormatError(`${bytes.length - at} bytes follow the graph`);
  return graph;
}

/** @param {Graph} graph @returns {string} base64url */
export function encodeParamGraph(graph) {
  /** @type {number[]} */
  const out = [];
  const varuint = (/** @type {number} */ v) => {
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
  };
  const optional = (/** @type {number | undefined} */ v) => varuint(v === undefined ? 0 : v + 1);
  varuint(graph.inputNodes.length);
  varuint(graph.outputNodes.length);
  varuint(graph.roots.length);
  for (const edges of graph.inputNodes) {
    varuint(edges.length);
    for (const e of edges) {
      varuint(e.field);
      out.push(e.scalarMask & 0xff, e.scalarMask >> 8);
      optional(e.child);
      optional(e.enumName);
      out.push(e.flags);
    }
  }
  for (const edges of graph.outputNodes) {
    varuint(edges.length);
    for (const e of edges) {
      varuint(e.field);
      optional(e.args);
      optional(e.output);
    }
  }
  for (const r of graph.roots) {
    varuint(r.key);
    optional(r.args);
    optional(r.output);
  }
  return Buffer.from(out).toString("base64url");
}

/**
 * The graph with every string reference replaced by the string itself: what two graphs must agree
 * on to be the same graph whatever their tables' order. Edges are keyed by name (the client looks
 * them up by name), so their order within a node does not count.
 * @param {{ strings: string[], graph: string }} schema
 */
export function namedParamGraph(schema) {
  const { strings } = schema;
  const name = (/** @type {number | undefined} */ i) => {
    if (i === undefined) return undefined;
    if (!(i in strings)) throw new ParamGraphFormatError(`string ${i} is not in the table`);
    return strings[i];
  };
  const byName = (/** @type {Array<[string | undefined, unknown]>} */ pairs) =>
    Object.fromEntries(pairs.map(([k, v]) => [k, v]).sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)));
  const g = decodeParamGraph(schema.graph);
  return {
    inputNodes: g.inputNodes.map((edges) =>
      byName(edges.map((e) => [name(e.field), { scalarMask: e.scalarMask, child: e.child, enumName: name(e.enumName), flags: e.flags }])),
    ),
    outputNodes: g.outputNodes.map((edges) => byName(edges.map((e) => [name(e.field), { args: e.args, output: e.output }]))),
    roots: byName(g.roots.map((r) => [name(r.key), { args: r.args, output: r.output }])),
  };
}

/**
 * The same graph with its table reordered: names that key edges first, the most used first, then
 * the rest (ties in code-unit order). Throws ParamGraphFormatError when the graph does not decode exactly
 * or the result is not the same graph.
 * @param {{ strings: string[], graph: string }} schema
 * @returns {{ strings: string[], graph: string }}
 */
export function compactParamGraph(schema) {
  const g = decodeParamGraph(schema.graph);
  const uses = new Map();
  for (const edges of [...g.inputNodes, ...g.outputNodes]) for (const e of edges) uses.set(e.field, (uses.get(e.field) ?? 0) + 1);
  // Ties by the string itself: the result depends on the graph, not on the order it came in.
  const { strings } = schema;
  const order = strings.map((_, i) => i).sort((a, b) => (uses.get(b) ?? 0) - (uses.get(a) ?? 0) || (strings[a] < strings[b] ? -1 : strings[a] > strings[b] ? 1 : a - b));
  const renumber = new Map(order.map((old, i) => [old, i]));
  const to = (/** @type {number} */ i) => {
    const n = renumber.get(i);
    if (n === undefined) throw new ParamGraphFormatError(`string ${i} is not in the table`);
    return n;
  };
  const opt = (/** @type {number | undefined} */ i) => (i === undefined ? undefined : to(i));
  const compacted = {
    strings: order.map((i) => schema.strings[i]),
    graph: encodeParamGraph({
      // Ascending keys within a node, as Prisma's own serializer writes them (Object.keys order).
      inputNodes: g.inputNodes.map((edges) => edges.map((e) => ({ ...e, field: to(e.field), enumName: opt(e.enumName) })).sort((a, b) => a.field - b.field)),
      outputNodes: g.outputNodes.map((edges) => edges.map((e) => ({ ...e, field: to(e.field) })).sort((a, b) => a.field - b.field)),
      roots: g.roots.map((r) => ({ ...r, key: to(r.key) })),
    }),
  };
  if (JSON.stringify(namedParamGraph(compacted)) !== JSON.stringify(namedParamGraph(schema))) {
    throw new ParamGraphFormatError("the renumbered graph differs from the original");
  }
  return compacted;
}

/** The largest string number that keys an edge: what sizes the client's per-node objects. */
export function largestEdgeKey(/** @type {string} */ graph) {
  const g = decodeParamGraph(graph);
  let max = -1;
  for (const edges of [...g.inputNodes, ...g.outputNodes]) for (const e of edges) max = Math.max(max, e.field);
  return max;
}

// The generated client's assignment, as prisma-client's generator writes it.
const ASSIGNMENT = /(config\.parameterizationSchema = \{\s*strings: JSON\.parse\()("(?:[^"\\]|\\.)*")(\),\s*graph: ")([A-Za-z0-9_-]*)("\s*\})/;

/**
 * The parameterization schema a generated client's internal/class.ts assigns.
 * @param {string} source
 * @returns {{ strings: string[], graph: string }}
 */
export function generatedSchema(source) {
  const match = ASSIGNMENT.exec(source);
  if (!match) throw new ParamGraphFormatError("no parameterization schema in the client");
  return { strings: JSON.parse(JSON.parse(match[2])), graph: match[4] };
}

/**
 * The client's source with `schema` assigned instead of the schema it had.
 * @param {string} source
 * @param {{ strings: string[], graph: string }} schema
 */
export function withGeneratedSchema(source, schema) {
  if (!ASSIGNMENT.test(source)) throw new ParamGraphFormatError("no parameterization schema in the client");
  return source.replace(ASSIGNMENT, (_, head, _strings, middle, _graph, tail) => head + JSON.stringify(JSON.stringify(schema.strings)) + middle + schema.graph + tail);
}

/**
 * Compacts the graph in a generated client's internal/class.ts in place.
 * @param {string} file
 * @returns {{ changed: boolean }}
 */
export function compactGeneratedClient(file) {
  const source = readFileSync(file, "utf8");
  const compacted = withGeneratedSchema(source, compactParamGraph(generatedSchema(source)));
  if (compacted === source) return { changed: false };
  writeFileSync(file, compacted);
  return { changed: true };
}
