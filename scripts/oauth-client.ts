// npm run oauth-client -- create|list|rotate|revoke: manage OAuth clients (a secret is printed once).
import { readFileSync } from "node:fs";
import { now } from "../lib/clock";
import { cliActor } from "../lib/db/audit";
import { dbHandle } from "../lib/db/client";
import { CLIENT_SECRET_OVERLAP_MS } from "../lib/oauth/client-secret";
import { createOAuthClient } from "../lib/oauth/client-admin/create-client";
import { OAuthClientCommandError } from "../lib/oauth/client-admin/errors";
import { listOAuthClients } from "../lib/oauth/client-admin/list-clients";
import { revokeOAuthClient } from "../lib/oauth/client-admin/revoke-client";
import { rotateClientSecret } from "../lib/oauth/client-admin/rotate-client-secret";
import { SUPPORTED_SCOPES } from "../lib/oauth/scopes";
import { SchoolCommandError } from "../lib/schools/errors";
import { runDbCommand, type CommandLine } from "./cli";

const OVERLAP_HOURS = CLIENT_SECRET_OVERLAP_MS / 3_600_000;
const USAGE = `usage:
  npm run oauth-client -- create --school <subdomain|id> --name <name> --redirect-uri <uri> [--redirect-uri <uri>…] --scope "<scopes>" [--public]
      [--jwks-uri <https uri> | --jwks-file <path>] [--post-logout-redirect-uri <uri>…] [--backchannel-logout-uri <https uri>]
      [--id-token-alg RS256|ES256]
  npm run oauth-client -- list [--school <subdomain|id>]
  npm run oauth-client -- rotate <client_id> [--no-overlap]
  npm run oauth-client -- revoke <client_id>

Clients are confidential (a generated secret, client_secret_basic or client_secret_post) unless --public
(PKCE only). With --jwks-uri or --jwks-file (a JWK Set of public keys) the client authenticates with
private_key_jwt (signed client assertions) and is issued no secret. --id-token-alg chooses how its ID tokens
are signed (id_token_signed_response_alg; RS256 unless ES256 is asked for). rotate issues a new secret; the old one keeps working for ${OVERLAP_HOURS} hours, or stops at once
with --no-overlap. revoke disables the client and revokes its grants and tokens at once.
scopes: ${SUPPORTED_SCOPES.join(" ")}`;

const FLAGS = {
  school: { type: "string" },
  name: { type: "string" },
  "redirect-uri": { type: "string", multiple: true },
  scope: { type: "string" },
  public: { type: "boolean", default: false },
  "jwks-uri": { type: "string" },
  "jwks-file": { type: "string" },
  "post-logout-redirect-uri": { type: "string", multiple: true },
  "backchannel-logout-uri": { type: "string" },
  "id-token-alg": { type: "string" },
  "no-overlap": { type: "boolean", default: false },
} as const;

function readJwksFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new OAuthClientCommandError(`--jwks-file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function main({ command, values, positionals }: CommandLine<typeof FLAGS>): Promise<void> {
  const db = dbHandle().prisma;
  switch (command) {
    case "create": {
      if (!values.school || !values.name || !values.scope) throw new OAuthClientCommandError(`create needs --school, --name, --redirect-uri and --scope\n${USAGE}`);
      const { client, school, secret } = await createOAuthClient({
        db,
        actor: cliActor("npm run oauth-client"),
        now: now(),
        school: values.school,
        name: values.name,
        redirectUris: values["redirect-uri"] ?? [],
        scope: values.scope,
        confidential: !values.public,
        jwksUri: values["jwks-uri"],
        jwks: values["jwks-file"] ? readJwksFile(values["jwks-file"]) : undefined,
        postLogoutRedirectUris: values["post-logout-redirect-uri"],
        backchannelLogoutUri: values["backchannel-logout-uri"],
        idTokenSignedResponseAlg: values["id-token-alg"],
      });
      console.log(`created ${secret ? "confidential" : "public"} OAuth client ${JSON.stringify(client.name)} for ${school.subdomain}`);
      console.log(`client_id: ${client.clientId}`);
      console.log(`redirect URIs: ${client.redirectUris.join(" ")}`);
      console.log(`scopes: ${client.scope}`);
      console.log(`ID tokens signed with: ${client.idTokenSignedResponseAlg}`);
      if (client.tokenEndpointAuthMethod === "private_key_jwt") {
        console.log("private_key_jwt: no secret; the client signs a client assertion with its own key (RFC 7523).");
      } else if (secret) {
        console.log(`client_secret:\n\n  ${secret}\n`);
        console.log("This is the only time the secret is shown: store it now. Send it with HTTP Basic (client_secret_basic) or as client_secret in the body.");
      } else {
        console.log("Public client: no secret; it must use PKCE (S256).");
      }
      return;
    }
    case "list": {
      const clients = await listOAuthClients({ db, school: values.school });
      const at = now();
      for (const c of clients) {
        const status = c.revokedAt ? `revoked ${c.revokedAt.toISOString()}` : "active";
        const kind = c.tokenEndpointAuthMethod === "none" ? "public" : "confidential";
        const overlap = !c.revokedAt && c.previousClientSecretExpiresAt && c.previousClientSecretExpiresAt > at ? `  previous secret until ${c.previousClientSecretExpiresAt.toISOString()}` : "";
        console.log([c.clientId, c.school?.subdomain ?? "(every school)", JSON.stringify(c.name), kind, status, `scopes=${c.scope.replace(/ /g, ",")}`].join("  ") + overlap);
      }
      if (!clients.length) console.log("no OAuth clients");
      return;
    }
    case "rotate": {
      const clientId = positionals[0];
      if (!clientId) throw new OAuthClientCommandError(`rotate needs a client_id\n${USAGE}`);
      const r = await rotateClientSecret({ db, clientId, now: now(), overlap: !values["no-overlap"], actor: cliActor("npm run oauth-client") });
      console.log(`new client_secret for ${r.clientId}:\n\n  ${r.secret}\n`);
      console.log("This is the only time the secret is shown: store it now.");
      console.log(r.previousValidUntil ? `The previous secret keeps working until ${r.previousValidUntil.toISOString()}, then it is refused.` : "The previous secret no longer works.");
      return;
    }
    case "revoke": {
      const clientId = positionals[0];
      if (!clientId) throw new OAuthClientCommandError(`revoke needs a client_id\n${USAGE}`);
      const r = await revokeOAuthClient({ db, clientId, now: now(), actor: cliActor("npm run oauth-client") });
      console.log(
        r.alreadyRevoked
          ? `OAuth client ${clientId} was already revoked`
          : `revoked OAuth client ${clientId}: ${r.grants} grants, ${r.accessTokens} access tokens and ${r.refreshTokens} refresh tokens revoked`,
      );
      return;
    }
    default:
      throw new OAuthClientCommandError(USAGE);
  }
}

await runDbCommand({
  name: "oauth-client",
  usage: USAGE,
  expected: (err) => err instanceof OAuthClientCommandError || err instanceof SchoolCommandError,
  flags: FLAGS,
  body: main,
});
