// The console's Keys, Webhooks and Apps forms under a signed-in owner (seeded, fast-check): any
// settings action, any target (this school's endpoint or client, another school's, garbage), any
// fields, any form token. Every answer is a redirect, 404 or 403 (no 5xx), a notice never leaks
// internals or a secret, the other school's keys, endpoints and clients never change, and refused
// posts (cross-site, no token, signed out, a manager, a stale sign-in without the password) change nothing.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import { appPath, performSettingsAction, SETTINGS_ACTIONS } from "@/lib/console/settings-actions";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "@/lib/console/step-up";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { createWebhookEndpoint } from "@/lib/webhooks/create-endpoint";
import { appForSuite } from "../../helpers/app-for-suite";
import {
  CONSOLE_FUZZ_RUNS as RUNS,
  CONSOLE_FUZZ_SEED as SEED,
  CONSOLE_HOST as HOST,
  INTERNALS_LEAK,
  consoleForm,
  consoleHeaders,
  expectConsoleAnswer,
  hostileText,
  noticeOf,
  staffSessionId,
} from "../../helpers/console-fuzz";
import { signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// A notice leaks no internals and no secret (API key, webhook secret, client secret).
const LEAK = [...INTERNALS_LEAK, /\bsh_[a-z0-9]+_/, /whsec_/, /ocs_/];
const ACTIONS = Object.keys(SETTINGS_ACTIONS);

const app = appForSuite({ host: HOST });
let owner = "";
let manager = "";
let sessionId = "";
let acmeEndpoint = "";
let acmeClient = "";

async function otherSchool() {
  const d = db();
  const [keys, endpoints, clients, grants, school] = await Promise.all([
    d.apiKey.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, orderBy: { id: "asc" } }),
    d.webhookEndpoint.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, orderBy: { id: "asc" } }),
    d.oAuthClient.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, orderBy: { id: "asc" } }),
    d.oAuthGrant.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, orderBy: { id: "asc" } }),
    d.school.findUniqueOrThrow({ where: { id: DEMO_IDS.acmeSchool }, select: { cimdAllowed: true } }),
  ]);
  return { keys, endpoints, clients, grants, school };
}

async function everything() {
  const d = db();
  const [keys, endpoints, clients, events, school] = await Promise.all([
    d.apiKey.findMany({ orderBy: { id: "asc" } }),
    d.webhookEndpoint.findMany({ orderBy: { id: "asc" } }),
    d.oAuthClient.findMany({ orderBy: { id: "asc" } }),
    d.webhookEvent.count(),
    d.school.findMany({ select: { id: true, cimdAllowed: true }, orderBy: { id: "asc" } }),
  ]);
  return { keys, endpoints, clients, events, school };
}

beforeAll(async () => {
  owner = await signIn(app, "owner@schoolhouse.test");
  manager = await signIn(app, "manager@schoolhouse.test");
  sessionId = await staffSessionId(owner);
  acmeEndpoint = (await createWebhookEndpoint({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { url: "https://hooks.acme.example/in", events: ["*"] }, now: now() })).record!.endpoint.id;
  acmeClient = (await db().oAuthClient.create({ data: { clientId: "oc_acme_fuzz", name: "Acme app", scope: "openid", schoolId: DEMO_IDS.acmeSchool, tokenEndpointAuthMethod: "client_secret_basic", clientSecretHash: "s256$00$00" } })).clientId;
});

const text = hostileText(["https://127.0.0.1/x", "http://evil.example/cb", "*", "yes"]);

// The fields of a post that would change something were it let through (one form for every action).
const WOULD_CHANGE = { name: "refused", url: "https://hooks.example/refused", events: ["*"], redirectUris: "https://refused.example/cb", scopes: ["openid"], allowed: "no" };

describe("console settings forms, signed in as the owner (seeded fuzz)", () => {
  it(`${RUNS} posts: never a throw, no leak, no secret in a notice, the other school untouched`, async () => {
    const before = await otherSchool();
    const request = fc.record({
      action: fc.oneof(fc.constantFrom(...ACTIONS), text),
      target: fc.oneof(text, fc.constantFrom(acmeEndpoint, acmeClient, "demo-public-app", "demo-confidential-app")),
      fields: fc.record(
        {
          name: text,
          permissions: fc.array(fc.oneof(text, fc.constantFrom("courses", "membershipPlans", "refundPayment")), { maxLength: 4 }),
          expiresOn: text,
          key: fc.oneof(text, fc.constantFrom(DEMO_IDS.apiKeys.acmeFull)),
          url: text,
          events: fc.array(fc.oneof(text, fc.constantFrom("subscription.created", "*", "webhook.ping")), { maxLength: 3 }),
          description: text,
          confirm: text,
          event: text,
          redirectUris: text,
          scopes: fc.array(fc.oneof(text, fc.constantFrom("openid", "profile")), { maxLength: 3 }),
          endOldNow: text,
          allowed: fc.constantFrom("yes", "no", ""),
          [STEP_UP_FIELD]: text,
        },
        { requiredKeys: [] },
      ),
      token: fc.oneof(fc.uuid(), text),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const answer = await performSettingsAction({ headers: consoleHeaders(owner), action: r.action, target: r.target, form: consoleForm(r.token, r.fields), now: now() });
        await expectConsoleAnswer(answer, { sessionId, pathPrefix: "/manage/", leak: LEAK });
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(await otherSchool()).toEqual(before);
    // The school's own CIMD switch may have been flipped by a run: put it back for the suite.
    await db().school.update({ where: { id: DEMO_IDS.school }, data: { cimdAllowed: true } });
  }, 600_000);

  it("a refused post (cross-site, no token, signed out, a manager) changes nothing", async () => {
    const before = await everything();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ACTIONS), fc.constantFrom("cross", "token", "anonymous", "manager"), async (action, how) => {
        const form = consoleForm(how === "token" ? null : crypto.randomUUID(), { ...WOULD_CHANGE, confirm: "yes" });
        const cookie = how === "anonymous" ? "" : how === "manager" ? manager : owner;
        const headers = consoleHeaders(cookie, how === "cross" ? "https://evil.example" : undefined);
        const answer = await performSettingsAction({ headers, action, target: "demo-confidential-app", form, now: now() });
        expect(answer.kind).toBe(how === "manager" ? "forbidden" : "redirect");
      }),
      { numRuns: 60, seed: SEED },
    );
    expect(await everything()).toEqual(before);
  }, 300_000);

  it("a sign-in older than 10 minutes: key, secret and revoke actions ask for the password and change nothing without it", async () => {
    const before = await everything();
    await db().memberSession.update({ where: { id: sessionId }, data: { authenticatedAt: new Date(now().getTime() - 11 * 60_000) } });
    try {
      for (const action of ACTIONS.filter((a) => (SETTINGS_ACTIONS as Record<string, { stepUp?: boolean }>)[a]!.stepUp)) {
        const form = consoleForm(crypto.randomUUID(), { ...WOULD_CHANGE, name: "needs the password", url: "https://hooks.example/step-up", permissions: ["courses"], redirectUris: "https://step-up.example/cb", key: DEMO_IDS.apiKeys.full });
        const target = action.startsWith("app-") ? "demo-confidential-app" : "";
        const answer = await performSettingsAction({ headers: consoleHeaders(owner), action, target, form, now: now() });
        expect(answer.kind, action).toBe("redirect");
        const notice = await noticeOf(answer, sessionId);
        expect(notice, action).toEqual({ kind: "error", text: STEP_UP_MESSAGES.required });
      }
      expect(await everything()).toEqual(before);
    } finally {
      await db().memberSession.update({ where: { id: sessionId }, data: { authenticatedAt: now() } });
    }
  }, 300_000);
});

it("app pages carry client ids that are URLs", () => {
  expect(appPath("https://agent.example/client.json")).toMatch(/^\/manage\/apps\/[A-Za-z0-9_-]+$/);
});
