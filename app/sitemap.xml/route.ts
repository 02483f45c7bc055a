import { serveSitemap } from "@/lib/storefront/text-routes";

export const dynamic = "force-dynamic";

export const GET = serveSitemap;
export const HEAD = serveSitemap;
