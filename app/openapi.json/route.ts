import { serveOpenApi } from "@/lib/storefront/text-routes";

export const dynamic = "force-dynamic";

export const GET = serveOpenApi;
export const HEAD = serveOpenApi;
