import { preflight } from "@/lib/oauth/http";
import { handleIntrospectRequest } from "@/lib/oauth/introspect";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleIntrospectRequest(request);
export const OPTIONS = () => preflight();
