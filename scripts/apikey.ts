// npm run apikey -- create|list|revoke|rotate: manage Admin API keys (the secret is printed once).
import { ApiKeyCommandError, createApiKey, listApiKeys, parsePermissions, revokeApiKey, rotateApiKey } from "../lib/admin-api/api-keys";
import { now } from "../lib/clock";
import { cliActor } from "../lib/db/audit";
import { ADMIN_OPERATIONS, ALL_PERMISSIONS } from "../lib/credentials/permissions";
import { runDbCommand, type CommandLine } from "./cli";

const USAGE = `usage:
  npm run apikey -- create --school <subdomain|id> --name <label> [--permissions all|none|op1,op2] [--enforce-limits] [--expires-at <ISO date>]
  npm run apikey -- list [--school <subdomain|id>]
  npm run apikey -- revoke <id|prefix>
  npm run apikey -- rotate <id|prefix>   (a new secret, same name and permissions; the old key is revoked)

permissions: ${ADMIN_OPERATIONS.join(", ")}
  all (the default): every operation, including ones added later; a list never grows by itself`;

const FLAGS = {
  school: { type: "string" },
  name: { type: "string" },
  permissions: { type: "string" },
  "enforce-limits": { type: "boolean", default: false },
  "expires-at": { type: "string" },
} as const;

async function main({ command, values, positionals }: CommandLine<typeof FLAGS>): Promise<void> {
  switch (command) {
    case "create": {
      if (!values.school || !values.name) throw new ApiKeyCommandError(`create needs --school and --name\n${USAGE}`);
      const expiresAt = values["expires-at"] ? new Date(values["expires-at"]) : null;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new ApiKeyCommandError("--expires-at is not a date");
      const created = await createApiKey({
        school: values.school,
        name: values.name,
        permissions: parsePermissions(values.permissions),
        enforceLimits: values["enforce-limits"] ?? false,
        expiresAt,
        actor: cliActor("npm run apikey"),
        now: now(),
      });
      console.log(`created API key ${created.id} (prefix ${created.prefix}) for ${created.school}`);
      const all = created.permissions.includes(ALL_PERMISSIONS);
      console.log(`permissions: ${all ? "all (every operation, including ones added later)" : created.permissions.join(", ") || "(none)"}`);
      console.log(`\n  ${created.key}\n\nThis is the only time the key is shown: store it now. Send it as X-Service-API-Key.`);
      return;
    }
    case "list": {
      const keys = await listApiKeys({ school: values.school });
      for (const k of keys) {
        const status = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : k.expiresAt && k.expiresAt <= now() ? "expired" : "active";
        console.log(
          [k.id, k.prefix, k.school.subdomain, JSON.stringify(k.name), status, `permissions=${k.permissions.join(",") || "-"}`,
            `lastUsed=${k.lastUsedAt?.toISOString() ?? "never"}`].join("  "),
        );
      }
      if (!keys.length) console.log("no API keys");
      return;
    }
    case "revoke": {
      const ref = positionals[0];
      if (!ref) throw new ApiKeyCommandError(`revoke needs an id or prefix\n${USAGE}`);
      const r = await revokeApiKey({ ref, now: now(), actor: cliActor("npm run apikey") });
      console.log(r.alreadyRevoked ? `API key ${r.prefix} was already revoked` : `revoked API key ${r.prefix}`);
      return;
    }
    case "rotate": {
      const ref = positionals[0];
      if (!ref) throw new ApiKeyCommandError(`rotate needs an id or prefix\n${USAGE}`);
      const r = await rotateApiKey({ ref, now: now(), actor: cliActor("npm run apikey") });
      console.log(`rotated API key ${r.previousPrefix}: it is revoked; the new key ${r.id} has prefix ${r.prefix}`);
      console.log(`\n  ${r.key}\n\nThis is the only time the key is shown: store it now. Send it as X-Service-API-Key.`);
      return;
    }
    default:
      throw new ApiKeyCommandError(USAGE);
  }
}

await runDbCommand({ name: "apikey", usage: USAGE, expected: (err) => err instanceof ApiKeyCommandError, flags: FLAGS, body: main });
