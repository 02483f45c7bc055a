import { serveContentImage } from "@/lib/content/serve-image";

export const dynamic = "force-dynamic";

export const GET = serveContentImage;
export const HEAD = serveContentImage;
