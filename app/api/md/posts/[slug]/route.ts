import { route } from "@/app/_routes/table";

export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route("/api/md/posts/[slug]");
