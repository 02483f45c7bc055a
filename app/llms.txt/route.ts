import { serveLlmsTxt } from "@/lib/storefront/text-routes";

export const dynamic = "force-dynamic";

export const GET = serveLlmsTxt;
export const HEAD = serveLlmsTxt;
