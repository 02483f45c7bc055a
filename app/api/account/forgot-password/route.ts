import { handleForgotPasswordPost } from "@/lib/auth/account-forms";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleForgotPasswordPost(request);
