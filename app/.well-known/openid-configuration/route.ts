import { route } from "@/app/_routes/table";

export const dynamic = "force-dynamic";
export const { GET, OPTIONS } = route("/.well-known/openid-configuration");
