import { serveLlmsFullPart } from "@/lib/storefront/llms-routes";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ part: string }> };

const handler = async (request: Request, { params }: Context) => serveLlmsFullPart(request, (await params).part);
export const GET = handler;
export const HEAD = handler;
