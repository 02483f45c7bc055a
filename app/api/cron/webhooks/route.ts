import { route } from "@/app/_routes/table";

export const dynamic = "force-dynamic";
export const maxDuration = 60;
export const { GET } = route("/api/cron/webhooks");
