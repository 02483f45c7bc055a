import { unknownMarkdownPath } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

// /api/md itself and every path under it that no document route matches: a markdown 404.
const route = unknownMarkdownPath();
export const GET = route.GET;
export const HEAD = route.HEAD;
export const OPTIONS = route.OPTIONS;
export const POST = route.POST;
export const PUT = route.PUT;
export const PATCH = route.PATCH;
export const DELETE = route.DELETE;
