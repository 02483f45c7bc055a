import type { ShapeOutput, ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ToolName } from "./access";
import type { McpContext } from "./context";

// The contract between server.ts and the tool files, apart from both so the tools do not import
// the server that imports them.
export interface ToolConfig<I extends ZodRawShapeCompat, O extends ZodRawShapeCompat> {
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  annotations: ToolAnnotations;
}

/** Registers one tool; `run` gets the checked arguments and the context of the request that called it. */
export type ToolRegistrar<T extends ToolName> = <I extends ZodRawShapeCompat, O extends ZodRawShapeCompat>(
  name: T,
  config: ToolConfig<I, O>,
  run: (args: ShapeOutput<I>, ctx: McpContext) => Promise<CallToolResult>,
) => void;
