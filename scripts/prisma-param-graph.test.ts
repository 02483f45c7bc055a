import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  compactGeneratedClient,
  compactParamGraph,
  decodeParamGraph,
  encodeParamGraph,
  generatedSchema,
  largestEdgeKey,
  namedParamGraph,
  ParamGraphFormatError,
  withGeneratedSchema,
} from "./prisma-param-graph.mjs";

const CLIENT = path.resolve(import.meta.dirname, "../lib/db/generated/internal/class.ts");
const source = readFileSync(CLIENT, "utf8");
const generated = generatedSchema(source);
const decoded = decodeParamGraph(generated.graph);
const edgeKeys = new Set([...decoded.inputNodes, ...decoded.outputNodes].flat().map((e) => e.field));

/** The schema with its table in another order: what Prisma's generator might have written. */
function permuted(schema: { strings: string[]; graph: string }, order: number[]) {
  const to = new Map(order.map((old, i) => [old, i]));
  const g = decodeParamGraph(schema.graph);
  const n = (i: number | undefined) => (i === undefined ? undefined : to.get(i)!);
  return {
    strings: order.map((i) => schema.strings[i]!),
    graph: encodeParamGraph({
      inputNodes: g.inputNodes.map((edges) => edges.map((e) => ({ ...e, field: n(e.field)!, enumName: n(e.enumName) }))),
      outputNodes: g.outputNodes.map((edges) => edges.map((e) => ({ ...e, field: n(e.field)! }))),
      roots: g.roots.map((r) => ({ ...r, key: n(r.key)! })),
    }),
  };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("the generated client's parameterization graph", () => {
  it("decodes and encodes back to the same bytes (the format is Prisma's)", () => {
    expect(encodeParamGraph(decodeParamGraph(generated.graph))).toBe(generated.graph);
  });

  it("was renumbered at install: edge keys are the first strings of the table", () => {
    expect(edgeKeys.size).toBeGreaterThan(100);
    expect(largestEdgeKey(generated.graph)).toBe(edgeKeys.size - 1);
    expect(compactParamGraph(generated)).toEqual(generated);
  });
});

describe("compactParamGraph", () => {
  it("gives the same graph by name, with edge keys first, for any order of the table", () => {
    const reference = namedParamGraph(generated);
    fc.assert(
      fc.property(fc.shuffledSubarray([...generated.strings.keys()], { minLength: generated.strings.length }), (order) => {
        const input = permuted(generated, order);
        const out = compactParamGraph(input);
        expect(namedParamGraph(out)).toEqual(reference);
        expect(out).toEqual(generated);
        expect(largestEdgeKey(out.graph)).toBe(edgeKeys.size - 1);
        expect(new Set(out.strings)).toEqual(new Set(generated.strings));
      }),
      { numRuns: 5, seed: 30 },
    );
  });

  it("puts the most used key first", () => {
    const uses = new Map<string, number>();
    for (const e of [...decoded.inputNodes, ...decoded.outputNodes].flat()) uses.set(generated.strings[e.field]!, (uses.get(generated.strings[e.field]!) ?? 0) + 1);
    expect(uses.get(generated.strings[0]!)).toBe(Math.max(...uses.values()));
  });

  it("refuses a graph that ends early, has bytes after it, or names a string the table lacks", () => {
    const bytes = Buffer.from(generated.graph, "base64url");
    expect(() => compactParamGraph({ ...generated, graph: bytes.subarray(0, bytes.length - 3).toString("base64url") })).toThrow(ParamGraphFormatError);
    expect(() => compactParamGraph({ ...generated, graph: Buffer.concat([bytes, Buffer.from([0])]).toString("base64url") })).toThrow(ParamGraphFormatError);
    expect(() => compactParamGraph({ ...generated, strings: generated.strings.slice(0, 10) })).toThrow(ParamGraphFormatError);
  });
});

describe("compactGeneratedClient", () => {
  it("rewrites only the schema's two values in a client file, and a second run changes nothing", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "param-graph-"));
    dirs.push(dir);
    const file = path.join(dir, "class.ts");
    const before = withGeneratedSchema(source, permuted(generated, [...generated.strings.keys()].reverse()));
    writeFileSync(file, before);
    expect(compactGeneratedClient(file)).toEqual({ changed: true });
    expect(readFileSync(file, "utf8")).toBe(source);
    expect(compactGeneratedClient(file)).toEqual({ changed: false });
  });

  it("refuses a file without the schema", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "param-graph-"));
    dirs.push(dir);
    writeFileSync(path.join(dir, "class.ts"), "export {}\n");
    expect(() => compactGeneratedClient(path.join(dir, "class.ts"))).toThrow(ParamGraphFormatError);
  });
});
