import { serveLlmsTxt } from "@/lib/storefront/llms-routes";

export const dynamic = "force-dynamic";

export const GET = serveLlmsTxt;
export const HEAD = serveLlmsTxt;
