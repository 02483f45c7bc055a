import { handleAuthRequest } from "@/lib/auth/handler";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleAuthRequest(request);
export const POST = (request: Request) => handleAuthRequest(request);
