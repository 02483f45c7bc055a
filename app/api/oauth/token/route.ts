import { preflight } from "@/lib/oauth/http";
import { handleTokenRequest } from "@/lib/oauth/token-endpoint";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleTokenRequest(request);
export const OPTIONS = () => preflight();
