// npm run keys -- list|rotate|retire: the deployment's OpenID Connect signing keys (never the private half).
import { now } from "../lib/clock";
import { isSigningAlg, KEY_PUBLISH_AHEAD_SECONDS, MAX_SIGNED_TOKEN_TTL_SECONDS, SIGNING_ALGS } from "../lib/oidc/key-store";
import { listSigningKeys } from "../lib/oidc/list-signing-keys";
import { retireSigningKeys, SigningKeyCommandError } from "../lib/oidc/retire-signing-keys";
import { rotateSigningKey } from "../lib/oidc/rotate-signing-key";
import { runDbCommand, type CommandLine } from "./cli";

const USAGE = `usage:
  npm run keys -- list
  npm run keys -- rotate [--alg ${SIGNING_ALGS.join("|")}] [--now]
  npm run keys -- retire [<kid>] [--force]

Keys are made at first start (one per alg) and stored encrypted under AUTH_SECRET. rotate adds a new
key per alg (or --alg's): published at once, signing ${KEY_PUBLISH_AHEAD_SECONDS / 60} minutes later (--now: at once, for a
compromised key). retire without a kid unpublishes every key that stopped signing more than
${MAX_SIGNED_TOKEN_TTL_SECONDS / 60} minutes ago (no token it signed is valid any more); with a kid, that key, and with --force
even while tokens it signed are live (they stop verifying at once). The signing key is never retired.`;

const FLAGS = {
  alg: { type: "string" },
  now: { type: "boolean", default: false },
  force: { type: "boolean", default: false },
} as const;

async function main({ command, values, positionals }: CommandLine<typeof FLAGS>): Promise<void> {
  switch (command) {
    case "list": {
      const keys = await listSigningKeys({ now: now() });
      for (const k of keys) {
        const s = k.status;
        const state =
          s.state === "next" ? `next (signs from ${s.signsFrom.toISOString()})`
          : s.state === "active" ? "active (signing)"
          : s.state === "previous" ? `previous (stopped signing ${s.since.toISOString()}; retire from ${s.retirableFrom.toISOString()})`
          : `retired ${s.at.toISOString()}`;
        console.log([k.kid, k.alg, `created ${k.createdAt.toISOString()}`, state].join("  "));
      }
      if (!keys.length) console.log("no signing keys yet (they are made at first start)");
      return;
    }
    case "rotate": {
      if (values.alg !== undefined && !isSigningAlg(values.alg)) throw new SigningKeyCommandError(`--alg must be one of ${SIGNING_ALGS.join(", ")}`);
      const made = await rotateSigningKey({ now: now(), alg: values.alg as (typeof SIGNING_ALGS)[number] | undefined, immediately: values.now });
      for (const k of made) console.log(`new ${k.alg} key ${k.kid}: published now, signs from ${k.activatesAt.toISOString()}`);
      return;
    }
    case "retire": {
      const retired = await retireSigningKeys({ now: now(), kid: positionals[0], force: values.force });
      console.log(retired.length ? `retired ${retired.join(", ")}` : "no key is ready to retire (see list)");
      return;
    }
    default:
      throw new SigningKeyCommandError(USAGE);
  }
}

await runDbCommand({ name: "keys", usage: USAGE, expected: (err) => err instanceof SigningKeyCommandError, flags: FLAGS, body: main });
