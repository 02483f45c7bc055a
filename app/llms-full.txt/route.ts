import { serveLlmsFullTxt } from "@/lib/storefront/text-routes";

export const dynamic = "force-dynamic";

export const GET = serveLlmsFullTxt;
export const HEAD = serveLlmsFullTxt;
