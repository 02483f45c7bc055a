import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("home");
export const GET = route.GET;
export const HEAD = route.HEAD;
export const OPTIONS = route.OPTIONS;
export const POST = route.POST;
export const PUT = route.PUT;
export const PATCH = route.PATCH;
export const DELETE = route.DELETE;
