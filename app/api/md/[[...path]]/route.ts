import { unknownMarkdownPath } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

// /api/md itself and every path under it that no document route matches: a markdown 404.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = unknownMarkdownPath();
