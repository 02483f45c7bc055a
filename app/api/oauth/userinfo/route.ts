import { preflight } from "@/lib/oauth/http";
import { handleUserInfoRequest } from "@/lib/oauth/userinfo";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleUserInfoRequest(request);
export const POST = (request: Request) => handleUserInfoRequest(request);
export const OPTIONS = () => preflight();
