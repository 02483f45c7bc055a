// The Admin playground's GraphiQL assets: content-hashed names, immutable (lib/admin-api/playground.ts).
import { playgroundAssetResponse } from "@/lib/admin-api/playground";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ file: string }> };

export const GET = async (request: Request, { params }: Params) => playgroundAssetResponse(request, (await params).file);
export const HEAD = GET;
