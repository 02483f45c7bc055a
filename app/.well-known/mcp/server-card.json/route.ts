import { handleServerCardRequest } from "@/lib/mcp/server-card";

// MCP Server Card (SEP-2127) of this school's /mcp.
export const dynamic = "force-dynamic";
export const GET = handleServerCardRequest;
export const OPTIONS = handleServerCardRequest;
