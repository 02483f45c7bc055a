import { preflight } from "@/lib/oauth/http";
import { handleRegisterRequest } from "@/lib/oauth/register";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleRegisterRequest(request);
export const OPTIONS = () => preflight();
