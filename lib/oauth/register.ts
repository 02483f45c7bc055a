import { z } from "zod";
import { randomToken } from "../credentials/secret";
import { toUnixSeconds } from "../clock";
import { db } from "../db/client";
import { DEFAULT_SIGNING_ALG, SIGNING_ALGS } from "../oidc/key-store";
import { InvalidClientMetadataError, InvalidRedirectUriError } from "./errors";
import { jsonProblem, jsonProblemMessage } from "../http/body";
import { handleOAuth, jsonAnswer, readOAuthBody } from "./http";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";
import type { PlainRequest, PlainResponse } from "../http/plain";

const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

const bodySchema = z.object({
  client_name: z.string({ message: "client_name is required" }).trim().min(1, "client_name is required").max(200),
  redirect_uris: z.array(z.string().max(2048)).max(20).optional(),
  grant_types: z.array(z.enum(GRANT_TYPES, { message: "grant_types may only contain authorization_code and refresh_token" })).min(1).optional(),
  response_types: z.array(z.literal("code", { message: "response_types may only contain code" })).min(1).optional(),
  token_endpoint_auth_method: z.literal("none", { message: "token_endpoint_auth_method must be none: registered clients are public" }).optional(),
  // OpenID Connect Registration §2; `none` and HMAC are refused (an unsigned or shared-secret ID token).
  id_token_signed_response_alg: z.enum(SIGNING_ALGS, { message: `id_token_signed_response_alg must be one of ${SIGNING_ALGS.join(", ")}` }).optional(),
});

const sorted = (a: readonly string[]) => [...new Set(a)].sort();
const sameSet = (a: readonly string[], b: readonly string[]) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

/**
 * POST /api/oauth/register: not open dynamic registration. Only vendor platforms we know (the
 * VendorPlatform table) get a client, limited to the redirect URIs and scopes on file; every
 * client is public (no secret is ever issued). Registering the same configuration again returns
 * the same client instead of creating rows without bound.
 */
export function handleRegisterRequest(request: PlainRequest): Promise<PlainResponse> {
  return handleOAuth(async () => {
    await authorizationServerSchool(requestContext(request));
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") throw new InvalidClientMetadataError("The request body must be application/json");
    const text = await readOAuthBody(request, (m) => new InvalidClientMetadataError(m));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new InvalidClientMetadataError("The request body is not valid JSON");
    }
    const problem = jsonProblem(json);
    if (problem) throw new InvalidClientMetadataError(jsonProblemMessage(problem));
    const parsed = bodySchema.safeParse(json);
    if (!parsed.success) throw new InvalidClientMetadataError(parsed.error.issues[0]!.message);
    const input = parsed.data;

    const platform = await db().vendorPlatform.findFirst({ where: { name: { equals: input.client_name, mode: "insensitive" } } });
    if (!platform) throw new InvalidClientMetadataError("client_name is not a recognized vendor platform; other clients use a Client ID Metadata Document");

    const redirectUris = input.redirect_uris ?? platform.allowedRedirectUris;
    if (!redirectUris.length) throw new InvalidRedirectUriError("redirect_uris is required");
    const refused = redirectUris.filter((u) => !platform.allowedRedirectUris.includes(u));
    if (refused.length) throw new InvalidRedirectUriError(`redirect_uris not allowed for ${platform.name}: ${refused.join(" ")}`);
    const grantTypes = sorted(input.grant_types ?? GRANT_TYPES);
    const responseTypes = ["code"];
    const idTokenSignedResponseAlg = input.id_token_signed_response_alg ?? DEFAULT_SIGNING_ALG;

    const candidates = await db().oAuthClient.findMany({ where: { vendorPlatformId: platform.id, revokedAt: null }, orderBy: { createdAt: "asc" } });
    let client = candidates.find((c) => sameSet(c.redirectUris, redirectUris) && sameSet(c.grantTypes, grantTypes) && c.idTokenSignedResponseAlg === idTokenSignedResponseAlg);
    client ??= await db().oAuthClient.create({
      data: {
        clientId: `vp_${platform.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}_${randomToken(12)}`,
        name: platform.name,
        redirectUris: sorted(redirectUris),
        grantTypes,
        responseTypes,
        tokenEndpointAuthMethod: "none",
        scope: platform.scope,
        vendorPlatformId: platform.id,
        idTokenSignedResponseAlg,
      },
    });
    return jsonAnswer(
      {
        client_id: client.clientId,
        client_id_issued_at: toUnixSeconds(client.createdAt),
        client_name: client.name,
        redirect_uris: client.redirectUris,
        grant_types: client.grantTypes,
        response_types: client.responseTypes,
        token_endpoint_auth_method: "none",
        id_token_signed_response_alg: client.idTokenSignedResponseAlg,
        scope: client.scope,
      },
      { status: 201 },
    );
  });
}
