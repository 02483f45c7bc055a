import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

const route = markdownRoute("course_index");
export const GET = route.GET;
export const HEAD = route.HEAD;
