// npm run school -- create|list|disable|enable|add-member|domain|import|export|mail|test-clock|stripe: run schools from the command line.
import { passwordSetupUrl } from "../lib/auth/password-setup";
import { ContentError } from "../lib/content/errors";
import { exportContent } from "../lib/content/export-content";
import { describeChange, importContent } from "../lib/content/import-content";
import { now } from "../lib/clock";
import { cliActor } from "../lib/db/audit";
import { dbHandle } from "../lib/db/client";
import { env } from "../lib/env";
import { addMember } from "../lib/schools/add-member";
import { createSchool } from "../lib/schools/create-school";
import { SchoolCommandError } from "../lib/schools/errors";
import { platformBaseUrl, schoolLinkOrigin } from "../lib/schools/links";
import { findSchoolByRef } from "../lib/schools/find-school";
import { setMailSettings } from "../lib/schools/mail-settings";
import { listSchools, setCustomDomain, setSchoolEnabled } from "../lib/schools/manage-schools";
import { runDbCommand, type CommandLine } from "./cli";
import { advanceTestClock } from "../lib/billing/advance-test-clock";
import { parseClockTarget } from "../lib/billing/clock-target";
import { describeStripeAccount, removeStripeAccount, setStripeAccount, StripeSettingsError } from "../lib/billing/stripe-settings";

const USAGE = `usage:
  npm run school -- create --subdomain <s> --name <name> --owner-email <email> [--owner-name <name>] [--port <n>]
  npm run school -- list
  npm run school -- disable <subdomain|id>
  npm run school -- enable <subdomain|id>
  npm run school -- add-member --school <subdomain|id> --email <email> --role <role> [--name <name>] [--port <n>]
  npm run school -- domain add <host> --school <subdomain|id>
  npm run school -- domain remove --school <subdomain|id>
  npm run school -- import <dir> --school <subdomain|id> [--dry-run]
  npm run school -- export <dir> --school <subdomain|id>
  npm run school -- test-clock advance --school <subdomain|id> --to <ISO time|+<n>d|+<n>h>
  npm run school -- mail --school <subdomain|id> [--off <kind,…>] [--on <kind,…>] [--from <address>|default]
  npm run school -- stripe set --school <subdomain|id>      (reads the secret key, then the webhook signing secret, one per line on stdin)
  npm run school -- stripe show --school <subdomain|id>
  npm run school -- stripe remove --school <subdomain|id>

mail kinds: welcome, verify-email, password-reset (each on unless turned off)
--port: the port the school is served on, for the printed links on localhost (default: PORT, else 3000)`;

/** Everything on stdin (empty when it is a terminal nobody typed into). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function setupLine(origin: string, setup: { token: string; expiresAt: Date } | null, email: string): string {
  return setup
    ? `password setup link for ${email} (works once, until ${setup.expiresAt.toISOString()}):\n\n  ${passwordSetupUrl(origin, setup.token)}\n`
    : `${email} already has a password and signs in with it.`;
}

const FLAGS = {
  subdomain: { type: "string" },
  name: { type: "string" },
  "owner-email": { type: "string" },
  "owner-name": { type: "string" },
  school: { type: "string" },
  email: { type: "string" },
  role: { type: "string" },
  "dry-run": { type: "boolean", default: false },
  port: { type: "string" },
  to: { type: "string" },
  off: { type: "string" },
  on: { type: "string" },
  from: { type: "string" },
} as const;

/** `--port`, checked before anything is written: the port printed links name (else PORT, else 3000). */
function portOption(port: string | undefined): number | undefined {
  if (port === undefined) return undefined;
  const n = Number(port);
  if (!/^\d{1,5}$/.test(port) || n < 1 || n > 65535) throw new SchoolCommandError(`--port must be a port number from 1 to 65535, got "${port}"`);
  return n;
}

async function main({ command, values, positionals }: CommandLine<typeof FLAGS>): Promise<void> {
  const db = dbHandle().prisma;
  const e = env();
  const baseUrl = platformBaseUrl(e, portOption(values.port));
  switch (command) {
    case "create": {
      if (!values.subdomain || !values.name || !values["owner-email"]) {
        throw new SchoolCommandError(`create needs --subdomain, --name and --owner-email\n${USAGE}`);
      }
      const created = await createSchool({
        db,
        subdomain: values.subdomain,
        name: values.name,
        ownerEmail: values["owner-email"],
        ownerName: values["owner-name"],
        now: now(),
        actor: cliActor("npm run school"),
      });
      const origin = schoolLinkOrigin(created.school, baseUrl);
      console.log(`created school ${created.school.subdomain} (${created.school.id}) at ${origin}`);
      console.log(`owner: ${created.owner.email}${created.owner.created ? " (new account)" : " (existing account)"}`);
      console.log(setupLine(origin, created.passwordSetup, created.owner.email));
      console.log(`Admin API key (every permission), send it as X-Service-API-Key:\n\n  ${created.apiKey.key}\n`);
      console.log("The link and the key are shown only this once: store them now.");
      return;
    }
    case "list": {
      const schools = await listSchools({ db });
      for (const s of schools) {
        console.log(
          [s.id, s.subdomain, s.customDomain ?? "-", JSON.stringify(s.name), s.disabledAt ? `disabled ${s.disabledAt.toISOString()}` : "active",
            `members=${s._count.memberships}`, `courses=${s._count.courses}`].join("  "),
        );
      }
      if (!schools.length) console.log("no schools");
      return;
    }
    case "disable":
    case "enable": {
      const ref = positionals[0] ?? values.school;
      if (!ref) throw new SchoolCommandError(`${command} needs a school\n${USAGE}`);
      const r = await setSchoolEnabled({ db, school: ref, enabled: command === "enable", now: now(), actor: cliActor("npm run school") });
      console.log(`${r.changed ? "" : "already "}${command}d school ${r.school.subdomain}`);
      return;
    }
    case "add-member": {
      if (!values.school || !values.email || !values.role) throw new SchoolCommandError(`add-member needs --school, --email and --role\n${USAGE}`);
      const r = await addMember({ db, school: values.school, email: values.email, name: values.name, role: values.role, now: now(), actor: cliActor("npm run school") });
      console.log(`${r.user.email} is a member of ${r.school.subdomain} with roles ${r.roles.join(", ")}`);
      console.log(setupLine(schoolLinkOrigin(r.school, baseUrl), r.passwordSetup, r.user.email));
      return;
    }
    case "domain": {
      const [verb, host] = positionals;
      if (!values.school || (verb === "add" && !host) || (verb !== "add" && verb !== "remove")) {
        throw new SchoolCommandError(`domain needs add <host> or remove, and --school\n${USAGE}`);
      }
      const school = await setCustomDomain({ db, school: values.school, host: verb === "add" ? host! : null, platformDomain: e.PLATFORM_DOMAIN, now: now(), actor: cliActor("npm run school") });
      console.log(
        school.customDomain
          ? `${school.subdomain} is now also served at ${schoolLinkOrigin(school, baseUrl)} (point its DNS at this deployment)`
          : `${school.subdomain} has no custom domain`,
      );
      return;
    }
    case "import": {
      const dir = positionals[0];
      if (!dir || !values.school) throw new SchoolCommandError(`import needs <dir> and --school\n${USAGE}`);
      const dryRun = values["dry-run"] ?? false;
      const { school, changes } = await importContent({ db, school: values.school, dir, dryRun, now: now(), actor: cliActor("npm run school") });
      for (const c of changes) console.log(`${dryRun ? "would " : ""}${describeChange(c)}`);
      console.log(
        changes.length
          ? `${dryRun ? "dry run: " : ""}${changes.length} change${changes.length === 1 ? "" : "s"} ${dryRun ? "not written to" : "written to"} ${school.subdomain}`
          : `${school.subdomain} already matches ${dir}: nothing to change`,
      );
      return;
    }
    case "mail": {
      if (!values.school) throw new SchoolCommandError(`mail needs --school\n${USAGE}`);
      const r = await setMailSettings({ db, school: values.school, off: values.off, on: values.on, from: values.from, now: now(), actor: cliActor("npm run school") });
      console.log(`${r.school.subdomain} mails from ${r.sender}`);
      for (const k of r.kinds) console.log(`  ${k.kind}: ${k.on ? "on" : "off"}`);
      return;
    }
    case "export": {
      const dir = positionals[0];
      if (!dir || !values.school) throw new SchoolCommandError(`export needs <dir> and --school\n${USAGE}`);
      const school = await findSchoolByRef({ db, ref: values.school });
      const files = await exportContent({ db, schoolId: school.id, dir });
      console.log(`wrote ${files.length} files of ${school.subdomain} to ${dir}`);
      return;
    }
    case "test-clock": {
      const [verb] = positionals;
      if (verb !== "advance" || !values.school || !values.to) throw new SchoolCommandError(`test-clock needs advance, --school and --to\n${USAGE}`);
      const school = await findSchoolByRef({ db, ref: values.school });
      const current = (await db.schoolBilling.findUnique({ where: { schoolId: school.id } }))?.testClockAt ?? now();
      const to = parseClockTarget(values.to, current);
      const r = await advanceTestClock({ schoolId: school.id, to, now: now(), actor: cliActor("npm run school") });
      if ("error" in r) throw new SchoolCommandError(r.error);
      console.log(`${school.subdomain}'s test clock: ${r.from.toISOString()} -> ${r.to.toISOString()}`);
      console.log(
        `payments succeeded=${r.succeeded} failed=${r.failed} unknown=${r.unknown}; renewed without a charge=${r.renewedWithoutCharge}; ` +
          `canceled=${r.canceled} expired=${r.expired} incomplete_expired=${r.incompleteExpired}`,
      );
      return;
    }
    case "stripe": {
      const [verb] = positionals;
      if (!values.school || (verb !== "set" && verb !== "show" && verb !== "remove")) throw new SchoolCommandError(`stripe needs set, show or remove, and --school\n${USAGE}`);
      const school = await findSchoolByRef({ db, ref: values.school });
      if (verb === "set") {
        // From stdin, never from the command line: arguments show in process lists and shell history.
        const [secretKey = "", webhookSecret = ""] = (await readStdin()).split(/\r?\n/);
        await setStripeAccount({ schoolId: school.id, secretKey, webhookSecret, now: now(), actor: cliActor("npm run school") });
      }
      if (verb === "remove") await removeStripeAccount({ schoolId: school.id, now: now(), actor: cliActor("npm run school") });
      const d = await describeStripeAccount({ schoolId: school.id });
      console.log(
        d.provider === "stripe"
          ? `${school.subdomain} takes payments through Stripe (${d.livemode ? "live mode" : "test mode"}): secret key ${d.secretKey}, webhook signing secret ${d.webhookSecret}\n` +
              `Stripe webhook endpoint: ${schoolLinkOrigin(school, baseUrl)}/api/webhooks/stripe`
          : `${school.subdomain} takes payments through the test provider (test mode: no money moves)`,
      );
      return;
    }
    default:
      throw new SchoolCommandError(USAGE);
  }
}

await runDbCommand({
  name: "school",
  usage: USAGE,
  expected: (err) => err instanceof SchoolCommandError || err instanceof ContentError || err instanceof StripeSettingsError,
  flags: FLAGS,
  body: main,
});
