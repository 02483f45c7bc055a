import { handleMcpRequest } from "@/lib/mcp/handler";

// The MCP server (Streamable HTTP, stateless): lib/mcp/handler.ts.
export const dynamic = "force-dynamic";
export const POST = handleMcpRequest;
export const GET = handleMcpRequest;
export const DELETE = handleMcpRequest;
export const OPTIONS = handleMcpRequest;
