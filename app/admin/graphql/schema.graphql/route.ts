import { serveAdminSdl } from "@/lib/storefront/text-routes";

export const dynamic = "force-dynamic";

export const GET = serveAdminSdl;
export const HEAD = serveAdminSdl;
