import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("post");
export const GET = route.GET;
export const HEAD = route.HEAD;
