import { parse, print } from "graphql";
import { textResponse } from "../storefront/http";
import { adminTypeDefs } from "./schema";

let sdl: string | undefined;

/**
 * /admin/graphql/schema.graphql: the Admin API's GraphQL SDL, printed from the type definitions the
 * executable schema is built from (so it cannot drift from it), descriptions included.
 */
export async function serveAdminSdl(request: Request): Promise<Response> {
  sdl ??= print(parse(adminTypeDefs)) + "\n";
  return textResponse({
    request,
    body: sdl,
    contentType: "text/plain; charset=utf-8",
    cacheControl: "public, max-age=300",
    headers: { "access-control-allow-origin": "*" },
  });
}
