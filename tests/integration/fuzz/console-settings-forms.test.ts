// The console's Keys, Webhooks and Apps forms under a signed-in owner (seeded, fast-check): any
// settings action, any target (this school's endpoint or client, another school's, garbage), any
// fields, any form token. Every answer is a redirect, 404 or 403 (no 5xx), a notice never leaks
// internals or a secret, the other school's keys, endpoints and clients never change, and refused
// posts (cross-site, no token, signed out, a manager, a stale sign-in without the password) change nothing.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import { consoleAccess } from "@/lib/console/access";
import { consoleNotice, FORM_TOKEN_FIELD } from "@/lib/console/form-guard";
import { appPath, performSettingsAction, SETTINGS_ACTIONS } from "@/lib/console/settings-actions";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "@/lib/console/step-up";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { createWebhookEndpoint } from "@/lib/webhooks/create-endpoint";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const RUNS = Number(process.env.FUZZ_RUNS_CONSOLE ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const LEAK = [/\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+/, /node_modules/, /prisma|P20\d\d/i, /\bSELECT\b.+\bFROM\b/i, /\bsh_[a-z0-9]+_/, /whsec_/, /ocs_/];
const HOST = "demo.localhost";
const ORIGIN = `http://${HOST}`;
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
  const access = await consoleAccess({ headers: new Headers({ host: HOST, cookie: owner }) });
  if (access.kind !== "staff") throw new Error("the owner is staff");
  sessionId = access.session.sessionId;
  acmeEndpoint = (await createWebhookEndpoint({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { url: "https://hooks.acme.example/in", events: ["*"] }, now: now() })).record!.endpoint.id;
  acmeClient = (await db().oAuthClient.create({ data: { clientId: "oc_acme_fuzz", name: "Acme app", scope: "openid", schoolId: DEMO_IDS.acmeSchool, tokenEndpointAuthMethod: "client_secret_basic", clientSecretHash: "s256$00$00" } })).clientId;
});

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "\u0000", "x".repeat(5000), "<script>alert(1)</script>", "' OR 1=1 --", "😀", "not-a-uuid", "2026-02-31", "9999-12-31", "https://127.0.0.1/x", "http://evil.example/cb", "*", "yes"),
  fc.uuid(),
);

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
        const form = new FormData();
        form.set(FORM_TOKEN_FIELD, r.token);
        for (const [k, v] of Object.entries(r.fields)) {
          if (Array.isArray(v)) for (const item of v) form.append(k, item);
          else form.set(k, v as string);
        }
        const answer = await performSettingsAction({ headers: new Headers({ host: HOST, origin: ORIGIN, cookie: owner }), action: r.action, target: r.target, form, now: now() });
        expect(["redirect", "not_found", "forbidden"]).toContain(answer.kind);
        if (answer.kind === "redirect") {
          const url = new URL(answer.location, ORIGIN);
          expect(url.origin).toBe(ORIGIN);
          expect(url.pathname.startsWith("/manage/")).toBe(true);
          const notice = await consoleNotice({ sessionId, token: url.searchParams.get("notice") ?? undefined, now: now() });
          for (const pattern of LEAK) expect(notice?.text ?? "").not.toMatch(pattern);
        }
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
        const form = new FormData();
        if (how !== "token") form.set(FORM_TOKEN_FIELD, crypto.randomUUID());
        form.set("name", "refused");
        form.set("url", "https://hooks.example/refused");
        form.append("events", "*");
        form.set("redirectUris", "https://refused.example/cb");
        form.append("scopes", "openid");
        form.set("allowed", "no");
        form.set("confirm", "yes");
        const cookie: Record<string, string> = how === "anonymous" ? {} : { cookie: how === "manager" ? manager : owner };
        const headers = new Headers({ host: HOST, origin: how === "cross" ? "https://evil.example" : ORIGIN, ...cookie });
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
        const form = new FormData();
        form.set(FORM_TOKEN_FIELD, crypto.randomUUID());
        form.set("name", "needs the password");
        form.set("url", "https://hooks.example/step-up");
        form.append("events", "*");
        form.append("permissions", "courses");
        form.set("redirectUris", "https://step-up.example/cb");
        form.append("scopes", "openid");
        form.set("allowed", "no");
        form.set("key", DEMO_IDS.apiKeys.full);
        const target = action.startsWith("app-") ? "demo-confidential-app" : "";
        const answer = await performSettingsAction({ headers: new Headers({ host: HOST, origin: ORIGIN, cookie: owner }), action, target, form, now: now() });
        expect(answer.kind, action).toBe("redirect");
        const url = new URL((answer as { location: string }).location, ORIGIN);
        const notice = await consoleNotice({ sessionId, token: url.searchParams.get("notice") ?? undefined, now: now() });
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
