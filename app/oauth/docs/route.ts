import { handleDocsRequest } from "@/lib/oauth/docs";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleDocsRequest(request);
