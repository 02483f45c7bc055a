import { handleDiscoveryRequest } from "@/lib/oauth/discovery";
import { preflight } from "@/lib/oauth/http";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleDiscoveryRequest(request);
export const OPTIONS = () => preflight();
