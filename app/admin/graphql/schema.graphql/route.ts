import { serveAdminSdl } from "@/lib/admin-api/sdl";

export const dynamic = "force-dynamic";

export const GET = serveAdminSdl;
export const HEAD = serveAdminSdl;
