import { handleAuthorizeGet, handleAuthorizePost } from "@/lib/oauth/authorize-endpoint";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleAuthorizeGet(request);
export const POST = (request: Request) => handleAuthorizePost(request);
