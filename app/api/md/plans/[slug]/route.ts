import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("plan");
export const GET = route.GET;
export const HEAD = route.HEAD;
