import type { AuditActor } from "../../db/audit";
import { db } from "../../db/client";
import type { OAuthClient } from "../../db/generated/client";
import { failure, success, type Payload } from "../../db/write-transaction";
import { createOAuthClient } from "../client-admin/create-client";
import { OAuthClientCommandError } from "../client-admin/errors";
import { checkAppName, checkAppRedirectUris, checkAppScope } from "./app-input";

export interface CreateSchoolClientInput {
  name: string;
  redirectUris: readonly string[];
  scopes: readonly string[];
}

/**
 * A confidential client (client_secret_basic, _post accepted) usable at this school only. The secret
 * is generated, returned once and stored salted and hashed (lib/oauth/client-secret.ts), exactly as
 * `npm run oauth-client -- create` does: this is the same verb with the console's messages.
 */
export async function createSchoolClient(options: { schoolId: string; input: CreateSchoolClientInput; now: Date; actor: AuditActor }): Promise<Payload<{ client: OAuthClient; secret: string }>> {
  const { schoolId, input, now, actor } = options;
  const name = checkAppName(input.name);
  if ("error" in name) return failure(name.error);
  const uris = checkAppRedirectUris(input.redirectUris);
  if ("error" in uris) return failure(uris.error);
  const scope = checkAppScope(input.scopes);
  if ("error" in scope) return failure(scope.error);
  try {
    const { client, secret } = await createOAuthClient({ db: db(), school: schoolId, name: name.name, redirectUris: uris.redirectUris, scope: scope.scope, confidential: true, now, actor });
    return success({ client, secret: secret! });
  } catch (err) {
    if (err instanceof OAuthClientCommandError) return failure(err.message);
    throw err;
  }
}
