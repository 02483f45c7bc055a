import { preflight } from "@/lib/oauth/http";
import { handleJwksRequest } from "@/lib/oidc/jwks-endpoint";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleJwksRequest(request);
export const OPTIONS = () => preflight();
