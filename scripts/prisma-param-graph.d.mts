// Types of ./prisma-param-graph.mjs (plain JavaScript: the install runs it before any TypeScript
// tool is set up).
export interface InputEdge {
  field: number;
  scalarMask: number;
  child: number | undefined;
  enumName: number | undefined;
  flags: number;
}
export interface OutputEdge {
  field: number;
  args: number | undefined;
  output: number | undefined;
}
export interface Root {
  key: number;
  args: number | undefined;
  output: number | undefined;
}
export interface Graph {
  inputNodes: InputEdge[][];
  outputNodes: OutputEdge[][];
  roots: Root[];
}
export interface ParamSchema {
  strings: string[];
  graph: string;
}
export class ParamGraphFormatError extends Error {}
export function decodeParamGraph(base64url: string): Graph;
export function encodeParamGraph(graph: Graph): string;
export function namedParamGraph(schema: ParamSchema): unknown;
export function compactParamGraph(schema: ParamSchema): ParamSchema;
export function largestEdgeKey(graph: string): number;
export function generatedSchema(source: string): ParamSchema;
export function withGeneratedSchema(source: string, schema: ParamSchema): string;
export function compactGeneratedClient(file: string): { changed: boolean };
