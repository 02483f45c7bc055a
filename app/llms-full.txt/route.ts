import { serveLlmsFullTxt } from "@/lib/storefront/llms-routes";

export const dynamic = "force-dynamic";

export const GET = serveLlmsFullTxt;
export const HEAD = serveLlmsFullTxt;
