import { handleEndSessionRequest } from "@/lib/oidc/end-session-endpoint";

export const dynamic = "force-dynamic";

// RP-Initiated Logout 1.0: GET (the usual redirect) and POST (form) are both allowed (§2).
export const GET = (request: Request) => handleEndSessionRequest(request);
export const POST = (request: Request) => handleEndSessionRequest(request);
