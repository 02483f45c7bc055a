import { route } from "@/app/_routes/table";

export const dynamic = "force-dynamic";
export const { POST } = route("/api/checkout/test/[session]");
