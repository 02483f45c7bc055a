import { markdownRoute } from "@/lib/storefront/markdown-route";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = markdownRoute("course");
