import { now as clockNow } from "../clock";
import { hashSecret } from "../credentials/secret";
import { db } from "../db/client";
import { handleOAuth, jsonAnswer } from "./http";
import { readTokenManagementRequest } from "./token-management-request";
import { issuedBy, revokeGrant } from "./tokens";
import { requestContext } from "../tenancy/request-context";
import type { PlainRequest, PlainResponse } from "../http/plain";

type Hint = "access_token" | "refresh_token";

/**
 * POST /api/oauth/revoke (RFC 7009). The client must authenticate; after that the answer is
 * always 200 with an empty JSON object, whether or not the token existed, so it reveals nothing.
 * A refresh token ends its whole grant (every access token from it); an access token ends only itself.
 * Tokens issued on another origin are unknown here and left alone (issuer binding).
 */
export function handleRevokeRequest(request: PlainRequest): Promise<PlainResponse> {
  return handleOAuth(async () => {
    const { form, token, client } = await readTokenManagementRequest(request);
    const hint = form.get("token_type_hint");
    // RFC 7009 §2.1: an unknown hint is ignored, and a wrong hint only changes the search order.
    const order: Hint[] = hint === "access_token" ? ["access_token", "refresh_token"] : ["refresh_token", "access_token"];
    const hash = hashSecret(token);
    const now = clockNow();
    const issuer = requestContext(request).origin;
    for (const kind of order) {
      if (kind === "refresh_token") {
        const row = await db().oAuthRefreshToken.findUnique({ where: { tokenHash: hash }, include: { grant: { select: { issuer: true } } } });
        if (row) {
          if (row.clientId === client.clientId && issuedBy(row.grant, issuer)) await db().$transaction((tx) => revokeGrant(tx, row.grantId, now));
          break;
        }
      } else {
        const row = await db().oAuthAccessToken.findUnique({ where: { tokenHash: hash }, include: { grant: { select: { issuer: true } } } });
        if (row) {
          if (row.clientId === client.clientId && issuedBy(row.grant, issuer)) {
            await db().oAuthAccessToken.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
          }
          break;
        }
      }
    }
    return jsonAnswer({});
  });
}
