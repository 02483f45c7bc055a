import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("home");
export const GET = route.GET;
export const HEAD = route.HEAD;
