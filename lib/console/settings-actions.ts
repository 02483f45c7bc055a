// The Keys, Webhooks and Apps pages' actions (/manage/keys, /manage/webhooks, /manage/apps), one per
// form: each parses its fields and calls the domain verb the CLI, the Admin API or MCP call, so the
// rules and messages are theirs. A new secret is kept for the page to show once
// (./secret-reveal.ts), never put in the notice. The frame (access, origin, step-up, once per form)
// is ./perform.ts; every action that makes or replaces a secret, or revokes a credential, asks for
// the step-up.
import type { AuditActor } from "../db/audit";
import { createApiKey } from "../credentials/api-keys/create-api-key";
import { revokeApiKey } from "../credentials/api-keys/revoke-api-key";
import { rotateApiKey } from "../credentials/api-keys/rotate-api-key";
import { createSchoolClient } from "../oauth/school-apps/create-school-client";
import { revokeSchoolApp } from "../oauth/school-apps/revoke-school-app";
import { rotateSchoolClientSecret } from "../oauth/school-apps/rotate-school-client-secret";
import { setCimdAllowed } from "../oauth/school-apps/set-cimd-allowed";
import { createWebhookEndpoint } from "../webhooks/create-endpoint";
import { deleteWebhookEndpoint } from "../webhooks/delete-endpoint";
import { redeliverWebhookEvent } from "../webhooks/redeliver-event";
import { rotateWebhookSecret } from "../webhooks/rotate-secret";
import { sendTestWebhookEvent } from "../webhooks/send-test-event";
import { updateWebhookEndpoint } from "../webhooks/update-endpoint";
import type { ConsoleStaff } from "./access";
import { FORM_TOKEN_FIELD, type ConsoleNotice } from "./form-guard";
import { endOfDaySeconds, INVALID_DATE } from "./member-actions";
import { CONSOLE_PATH } from "./nav";
import { performConsoleAction, type ActionAnswer } from "./perform";
import type { ConsolePermission } from "./permissions";
import { keepSecretForReveal } from "./secret-reveal";

export const KEYS_PATH = `${CONSOLE_PATH}/keys`;
export const WEBHOOKS_PATH = `${CONSOLE_PATH}/webhooks`;
export const APPS_PATH = `${CONSOLE_PATH}/apps`;
export const webhookPath = (id: string) => `${WEBHOOKS_PATH}/${id}`;
/** An app's page: client ids may be URLs (metadata documents), so the path carries them base64url-encoded. */
export const appPath = (clientId: string) => `${APPS_PATH}/${Buffer.from(clientId, "utf8").toString("base64url")}`;
export function clientIdFromPath(segment: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,2800}$/.test(segment)) return null;
  const id = Buffer.from(segment, "base64url").toString("utf8");
  return id && !id.includes("\uFFFD") && id.length <= 2048 ? id : null;
}

interface SettingsActionContext {
  staff: ConsoleStaff;
  field: (name: string) => string;
  all: (name: string) => string[];
  /** The page's target (endpoint id or client id) bound by the page, checked by the verb. */
  target: string;
  formToken: string;
  now: Date;
  actor: AuditActor;
}

interface SettingsAction {
  permission: ConsolePermission;
  stepUp?: boolean;
  /** Where the action's page is, for its target (never a path from the form). */
  page: (target: string) => string;
  run: (c: SettingsActionContext) => Promise<ConsoleNotice>;
}

const done = (text: string): ConsoleNotice => ({ kind: "done", text });
const refused = (errors: readonly string[]): ConsoleNotice => ({ kind: "error", text: `${errors.join(" ")} Nothing was changed.` });
const reveal = (c: SettingsActionContext, secret: string) => keepSecretForReveal({ sessionId: c.staff.session.sessionId, formToken: c.formToken, secret, now: c.now });

/** The optional expiry field (YYYY-MM-DD, the end of that day UTC), or an error. */
function expiryOf(raw: string): { expiresAt: Date | null } | { error: string } {
  if (!raw.trim()) return { expiresAt: null };
  const seconds = endOfDaySeconds(raw);
  return seconds === null ? { error: INVALID_DATE } : { expiresAt: new Date(seconds * 1000) };
}

/** Turning an endpoint off or on: one update of its `enabled`, the same frame either way. */
function webhookSwitch(enabled: boolean, doneText: string): SettingsAction {
  return {
    permission: "webhooks:manage",
    page: webhookPath,
    async run(c) {
      const r = await updateWebhookEndpoint({ schoolId: c.staff.school.id, input: { id: c.target, enabled }, now: c.now, actor: c.actor });
      return r.record ? done(doneText) : refused(r.errors);
    },
  };
}

export const SETTINGS_ACTIONS = {
  "key-create": {
    permission: "keys:manage",
    stepUp: true,
    page: () => KEYS_PATH,
    async run(c) {
      const expiry = expiryOf(c.field("expiresOn"));
      if ("error" in expiry) return refused([expiry.error]);
      const r = await createApiKey({ schoolId: c.staff.school.id, input: { name: c.field("name"), permissions: c.all("permissions"), expiresAt: expiry.expiresAt }, now: c.now, actor: c.actor });
      if (!r.record) return refused(r.errors);
      await reveal(c, r.record.key);
      return done(`API key "${r.record.apiKey.name}" created (prefix ${r.record.apiKey.prefix}).`);
    },
  },
  "key-revoke": {
    permission: "keys:manage",
    stepUp: true,
    page: () => KEYS_PATH,
    async run(c) {
      const r = await revokeApiKey({ schoolId: c.staff.school.id, input: { id: c.field("key") }, now: c.now, actor: c.actor });
      return r.record ? done(`API key "${r.record.name}" (prefix ${r.record.prefix}) is revoked: it is refused from now on.`) : refused(r.errors);
    },
  },
  "key-rotate": {
    permission: "keys:manage",
    stepUp: true,
    page: () => KEYS_PATH,
    async run(c) {
      const r = await rotateApiKey({ schoolId: c.staff.school.id, input: { id: c.field("key") }, now: c.now, actor: c.actor });
      if (!r.record) return refused(r.errors);
      await reveal(c, r.record.key);
      return done(`API key "${r.record.apiKey.name}" rotated: the old key is revoked; the new one has prefix ${r.record.apiKey.prefix}.`);
    },
  },
  "webhook-create": {
    permission: "webhooks:manage",
    stepUp: true,
    page: () => WEBHOOKS_PATH,
    async run(c) {
      const r = await createWebhookEndpoint({ schoolId: c.staff.school.id, input: { url: c.field("url"), events: c.all("events"), description: c.field("description") }, now: c.now, actor: c.actor });
      if (!r.record) return refused(r.errors);
      await reveal(c, r.record.secret);
      return done(`Endpoint ${r.record.endpoint.url} added.`);
    },
  },
  "webhook-update": {
    permission: "webhooks:manage",
    page: webhookPath,
    async run(c) {
      const r = await updateWebhookEndpoint({ schoolId: c.staff.school.id, input: { id: c.target, url: c.field("url"), events: c.all("events"), description: c.field("description") }, now: c.now, actor: c.actor });
      return r.record ? done("Endpoint saved.") : refused(r.errors);
    },
  },
  "webhook-disable": webhookSwitch(false, "Endpoint disabled: nothing is delivered to it until it is enabled."),
  "webhook-enable": webhookSwitch(true, "Endpoint enabled: waiting deliveries go out now."),
  "webhook-delete": {
    permission: "webhooks:manage",
    page: () => WEBHOOKS_PATH,
    async run(c) {
      if (c.field("confirm") !== "yes") return refused(["Tick the box to confirm the deletion."]);
      const r = await deleteWebhookEndpoint({ schoolId: c.staff.school.id, id: c.target, now: c.now, actor: c.actor });
      return r.errors.length ? refused(r.errors) : done("Endpoint deleted with its deliveries.");
    },
  },
  "webhook-rotate": {
    permission: "webhooks:manage",
    stepUp: true,
    page: webhookPath,
    async run(c) {
      const r = await rotateWebhookSecret({ schoolId: c.staff.school.id, id: c.target, now: c.now, actor: c.actor });
      if (!r.record) return refused(r.errors);
      await reveal(c, r.record.secret);
      return done("Signing secret rotated: the old one also signs for 24 hours.");
    },
  },
  "webhook-test": {
    permission: "webhooks:manage",
    page: webhookPath,
    async run(c) {
      const r = await sendTestWebhookEvent({ schoolId: c.staff.school.id, input: { endpointId: c.target }, now: c.now });
      return r.record ? done("Test event queued: it appears in the deliveries below once sent.") : refused(r.errors);
    },
  },
  "webhook-replay": {
    permission: "webhooks:manage",
    page: webhookPath,
    async run(c) {
      const r = await redeliverWebhookEvent({ schoolId: c.staff.school.id, input: { eventId: c.field("event"), endpointId: c.target }, now: c.now, actor: c.actor });
      return r.record ? done("Event queued again for this endpoint.") : refused(r.errors);
    },
  },
  "app-create": {
    permission: "apps:manage",
    stepUp: true,
    page: () => APPS_PATH,
    async run(c) {
      const r = await createSchoolClient({ schoolId: c.staff.school.id, input: { name: c.field("name"), redirectUris: c.field("redirectUris").split(/\r?\n/), scopes: c.all("scopes") }, now: c.now, actor: c.actor });
      if (!r.record) return refused(r.errors);
      await reveal(c, r.record.secret);
      return done(`App "${r.record.client.name}" created. Its client_id is ${r.record.client.clientId}.`);
    },
  },
  "app-rotate": {
    permission: "apps:manage",
    stepUp: true,
    page: appPath,
    async run(c) {
      const r = await rotateSchoolClientSecret({ schoolId: c.staff.school.id, input: { clientId: c.target, endOldNow: c.field("endOldNow") === "yes" }, now: c.now, actor: c.actor });
      if (!r.record) return refused(r.errors);
      await reveal(c, r.record.secret);
      return done(r.record.previousValidUntil ? "Secret rotated: the old one works for 24 hours more." : "Secret rotated: the old one no longer works.");
    },
  },
  "app-revoke": {
    permission: "apps:manage",
    stepUp: true,
    page: appPath,
    async run(c) {
      const r = await revokeSchoolApp({ schoolId: c.staff.school.id, input: { clientId: c.target }, now: c.now, actor: c.actor });
      return r.record ? done(`Revoked: ${r.record.revokedGrants} connection(s) ended.`) : refused(r.errors);
    },
  },
  "apps-cimd": {
    permission: "apps:manage",
    stepUp: true,
    page: () => APPS_PATH,
    async run(c) {
      const allowed = c.field("allowed") === "yes";
      const r = await setCimdAllowed({ schoolId: c.staff.school.id, input: { allowed }, now: c.now, actor: c.actor });
      return allowed
        ? done("Apps identified by a metadata document may connect again.")
        : done(`Apps identified by a metadata document are turned off; ${r.record!.revokedGrants} connection(s) ended.`);
    },
  },
} satisfies Record<string, SettingsAction>;

export type SettingsActionName = keyof typeof SETTINGS_ACTIONS;
export const isSettingsActionName = (name: string): name is SettingsActionName => Object.hasOwn(SETTINGS_ACTIONS, name);

/** One of the settings pages' actions on `target` (an endpoint id, a client id, or "" for the list pages). */
export async function performSettingsAction(o: { headers: Headers; action: string; target: string; form: FormData; now: Date }): Promise<ActionAnswer> {
  if (!isSettingsActionName(o.action)) return { kind: "not_found" };
  const action: SettingsAction = SETTINGS_ACTIONS[o.action];
  const target = o.target.slice(0, 2048);
  const token = o.form.get(FORM_TOKEN_FIELD);
  return performConsoleAction(
    { headers: o.headers, form: o.form, action: `settings:${o.action}:${target}`, permission: action.permission, page: action.page(target), stepUp: action.stepUp === true, now: o.now },
    (c) =>
      action.run({
        staff: c.staff,
        field: c.field,
        all: (name) => c.form.getAll(name).filter((v): v is string => typeof v === "string").slice(0, 100).map((v) => v.slice(0, 2048)),
        target,
        formToken: typeof token === "string" ? token : "",
        now: c.now,
        actor: c.actor,
      }),
  );
}
