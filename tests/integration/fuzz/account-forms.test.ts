// The account forms under a signed-in member with a genuine CSRF token (seeded, fast-check): any
// action, any fields, including other members' ids. Every answer below 500, nothing leaked, and
// nothing of any other member changes (their name, password, subscriptions, sessions, grants).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createSubscription } from "@/lib/membership/create-subscription";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { csrf, signIn } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const RUNS = Number(process.env.FUZZ_RUNS_ACCOUNT ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const LEAK = [/\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+/, /node_modules/, /prisma|P20\d\d/i, /\bSELECT\b.+\bFROM\b/i];

let app: AppServer;
let cookie = "";
let token = "";
const others: { subscription: string; session: string } = { subscription: "", session: "" };

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  app = await startAppServer({ host: "demo.localhost" });
  const plan = await db().membershipPlan.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school, planType: "recurring" } });
  others.subscription = (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "multi@schoolhouse.test", planId: plan.id }, now: new Date() })).record!.id;
  // The student's own membership collected by card: the payment-method form has one to act on.
  const yearly = await db().membershipPlan.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school, planType: "recurring", id: { not: plan.id } } });
  await createSubscription({
    actor: TEST_ACTOR,
    schoolId: DEMO_IDS.school,
    input: { email: "student@schoolhouse.test", planId: yearly.id, collectionMethod: "charge_automatically", paymentMethod: "4242424242424242" },
    now: new Date(),
  });
  await signIn(app, "multi@schoolhouse.test");
  others.session = (await db().memberSession.findFirstOrThrow({ where: { userId: DEMO_IDS.users.multiRole } })).id;
  const c = await csrf(app, await signIn(app, "student@schoolhouse.test"));
  cookie = c.cookie;
  token = c.token;
});
afterAll(() => app?.close());

// What belongs to the other member: none of it may change, whatever the student posts.
async function otherMember() {
  const d = db();
  const [user, subs, sessions, grants] = await Promise.all([
    d.user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.multiRole }, select: { name: true, email: true, passwordHash: true } }),
    d.subscription.findMany({ where: { userId: DEMO_IDS.users.multiRole }, select: { id: true, state: true, cancelAt: true, pausedAt: true, planId: true, scheduledPlanId: true, paymentMethodId: true, updatedAt: true } }),
    d.memberSession.findMany({ where: { userId: DEMO_IDS.users.multiRole }, select: { id: true, revokedAt: true } }),
    d.oAuthGrant.findMany({ where: { userId: DEMO_IDS.users.multiRole }, select: { id: true, revokedAt: true } }),
  ]);
  return { user, subs, sessions, grants };
}

const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("", "\u0000", "x".repeat(3000), "<script>", "' OR 1=1 --", "😀", "not-a-uuid"), fc.uuid());

describe("account forms, signed in (seeded fuzz)", () => {
  it(`${RUNS} posts: no 5xx, no leak, another member's data untouched`, async () => {
    const before = await otherMember();
    // The student's own sessions may end (end-session of their own id); keep the form's session alive.
    const request = fc.record({
      action: fc.constantFrom("profile", "email", "password", "cancel", "keep", "pause", "resume", "change-plan", "payment-method", "revoke-app", "end-session", "end-other-sessions"),
      fields: fc.record(
        {
          name: text,
          email: fc.oneof(text, fc.constantFrom("multi@schoolhouse.test", "MULTI@schoolhouse.test ", "a@b.co")),
          current: text,
          password: text,
          confirm: text,
          subscription: fc.oneof(text, fc.constant(others.subscription)),
          plan: fc.oneof(text, fc.constantFrom("5c400000-0000-4000-8000-000300000001", "5c400000-0000-4000-8000-000300000005")),
          card: fc.oneof(text, fc.constantFrom("4242424242424242", "4000000000000002", "pm_card_visa")),
          client: fc.oneof(text, fc.constantFrom("demo-public-app", "demo-confidential-app")),
          session: fc.oneof(text.filter((s) => !/^[0-9a-f-]{36}$/.test(s)), fc.constant(others.session)),
        },
        { requiredKeys: [] },
      ),
    });
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async ({ action, fields }) => {
        const body = new URLSearchParams({ csrfToken: token, ...fields }).toString();
        const res = await app.fetch(`/api/account/${action}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body, redirect: "manual" });
        const text = await res.text();
        const leak = LEAK.find((re) => re.test(text));
        if ((res.status >= 500 || leak) && failures.length < 20) failures.push(`${res.status} ${action} ${body.slice(0, 200)} → ${text.slice(0, 200)}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(failures).toEqual([]);
    expect(await otherMember()).toEqual(before);
  }, 10 * 60_000);
});

// A digital download's file under the signed-in student (GET /account/downloads/<id>): the demo's
// downloads (one of them taken by the student, the others not), random ids, hostile segments, any
// method. Only the download the student has answers its file; everything else the same 404.
describe("download files, signed in (seeded fuzz)", () => {
  const DOWNLOADS = { taken: "5c400000-0000-4000-8000-000a00000001", notTaken: ["5c400000-0000-4000-8000-000a00000002", "5c400000-0000-4000-8000-000a00000003"] };
  it(`${RUNS} requests: no 5xx, no leak, the file only for the download the student has`, async () => {
    await db().downloadAccess.createMany({ data: [{ schoolId: DEMO_IDS.school, downloadId: DOWNLOADS.taken, userId: DEMO_IDS.users.student }], skipDuplicates: true });
    const segment = fc.oneof(
      fc.constantFrom(DOWNLOADS.taken, ...DOWNLOADS.notTaken, DOWNLOADS.taken.toUpperCase(), `${DOWNLOADS.taken}%00`, "..%2F..%2Fetc%2Fpasswd", "%2e%2e", ""),
      fc.uuid(),
      text.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "x"))),
    );
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(segment, fc.constantFrom("GET", "HEAD"), async (id, method) => {
        const res = await app.fetch(`/account/downloads/${id}`, { method, headers: { cookie }, redirect: "manual" });
        const body = method === "HEAD" ? "" : await res.text();
        const leak = LEAK.find((re) => re.test(body));
        // A UUID names the same download in either case (Postgres compares uuids so).
        const mayHaveFile = id.toLowerCase() === DOWNLOADS.taken;
        const wrong = res.status >= 500 || leak || (res.status === 200) !== mayHaveFile || (res.status !== 200 && ![307, 308, 400, 404].includes(res.status));
        if (wrong && failures.length < 20) failures.push(`${res.status} ${method} ${id} → ${body.slice(0, 200)}`);
        if (res.status === 200 && res.headers.get("cache-control") !== "private, no-store" && failures.length < 20) failures.push(`cacheable file: ${id}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(failures).toEqual([]);
  }, 10 * 60_000);
});
