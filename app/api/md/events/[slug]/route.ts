import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("event");
export const GET = route.GET;
export const HEAD = route.HEAD;
