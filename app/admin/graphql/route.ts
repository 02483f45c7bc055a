import { createAdminHandler } from "@/lib/admin-api/handler";

export const dynamic = "force-dynamic";

const handle = createAdminHandler();

export const GET = (request: Request) => handle(request);
export const POST = (request: Request) => handle(request);
