import { handleSetPasswordPost } from "@/lib/auth/set-password-request";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleSetPasswordPost(request);
