import { handleResourceMetadataRequest } from "@/lib/mcp/resource-metadata";

// RFC 9728 root form: this origin's only protected resource is /mcp.
export const dynamic = "force-dynamic";
export const GET = handleResourceMetadataRequest;
export const OPTIONS = handleResourceMetadataRequest;
