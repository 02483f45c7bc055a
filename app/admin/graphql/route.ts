import { createAdminHandler } from "@/lib/admin-api/handler";
import { adminRateLimitPlugin } from "@/lib/rate-limit";

export const dynamic = "force-dynamic";

// Rate limits per credential (lib/rate-limit): after authentication, API-Version and validation.
const handle = createAdminHandler({ plugins: [adminRateLimitPlugin()] });

export const GET = (request: Request) => handle(request);
export const POST = (request: Request) => handle(request);
export const OPTIONS = (request: Request) => handle(request);
