import { route } from "@/app/_routes/table";

export const dynamic = "force-dynamic";
export const { GET } = route("/api/bench/baseline-proxied");
