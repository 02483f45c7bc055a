import { route } from "@/app/_routes/table";

export const dynamic = "force-dynamic";
export const { GET, HEAD } = route("/account/downloads/[id]");
