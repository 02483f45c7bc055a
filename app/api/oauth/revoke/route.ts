import { preflight } from "@/lib/oauth/http";
import { handleRevokeRequest } from "@/lib/oauth/revoke";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleRevokeRequest(request);
export const OPTIONS = () => preflight();
