import { handleResourceMetadataRequest } from "@/lib/mcp/resource-metadata";

// RFC 9728 metadata of /mcp (path-suffixed form, what MCP clients ask first).
export const dynamic = "force-dynamic";
export const GET = handleResourceMetadataRequest;
export const OPTIONS = handleResourceMetadataRequest;
