import { handleAccountPost } from "@/lib/account/forms";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleAccountPost(request);
