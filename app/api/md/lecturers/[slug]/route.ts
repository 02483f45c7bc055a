import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("lecturer");
export const GET = route.GET;
export const HEAD = route.HEAD;
