import { serveRobotsTxt } from "@/lib/storefront/text-routes";

export const dynamic = "force-dynamic";

export const GET = serveRobotsTxt;
export const HEAD = serveRobotsTxt;
