import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("category");
export const GET = route.GET;
export const HEAD = route.HEAD;
