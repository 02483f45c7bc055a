// The checkout endpoints under hostile input (seeded, fast-check): the review pages (plans, courses,
// digital downloads), POST /api/checkout (a plan, a course or a download, or several at once), the
// test provider's hosted page and its pay form, the return page. Every answer below 500, nothing
// leaked, and nothing bought: no subscription, payment, enrollment, download access or account appears, a
// checkout row appears only for a start that answered 303, and an open checkout's hosted page stays
// unpaid unless a test card paid it (then it completes only through the return page, never fuzzed).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { signIn } from "../oauth/helpers";

const RUNS = Number(process.env.FUZZ_RUNS_CHECKOUT ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const LEAK = [/\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+/, /\/(work|home|usr|tmp)\/[\w.-]+\//, /node_modules/, /prisma|P20\d\d/i, /\bSELECT\b.+\bFROM\b/i, /ECONNREFUSED|ERR_[A-Z_]{4,}/];
const ORIGIN = "http://demo.localhost";

let app: AppServer;
let cookie = "";
let hostedId = "";
let checkoutId = "";

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  app = await startAppServer({ host: "demo.localhost" });
  cookie = await signIn(app, "student@schoolhouse.test");
  const res = await app.fetch("/api/checkout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    body: new URLSearchParams({ plan: DEMO_IDS.plans.monthly, email: "fuzz.checkout@example.com", name: "Fuzz" }).toString(),
    redirect: "manual",
  });
  hostedId = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
  checkoutId = /Path=\/checkout\/complete\/([0-9a-f-]{36})/.exec(res.headers.get("set-cookie")!)![1]!;
});
afterAll(() => app?.close());

const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("", "\u0000", "x".repeat(3000), "<script>", "' OR 1=1 --", "😀", "not-a-uuid", "../../etc"), fc.uuid());
const seg = text.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "x")));
const planId = fc.oneof(text, fc.constantFrom(...Object.values(DEMO_IDS.plans)));
// Paid and draft courses and paid downloads of the demo (and a plan's id in their place): a free one
// would be taken at once by the signed-in requests, which is its job, not a refusal.
const courseId = fc.oneof(text, fc.constantFrom("5c400000-0000-4000-8000-000700000001", "5c400000-0000-4000-8000-000700000005", DEMO_IDS.plans.monthly));
const downloadId = fc.oneof(text, fc.constantFrom("5c400000-0000-4000-8000-000a00000002", "5c400000-0000-4000-8000-000a00000003", "5c400000-0000-4000-8000-000700000001"));
const card = fc.oneof(text, fc.constantFrom("4000000000000002", "4000000000009995", "4242 4242 4242 4241", "0000000000000000"));

type Req = { method: string; path: string; headers: Record<string, string>; body?: string };
const formHeaders = fc.record({
  "content-type": fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain", "multipart/form-data"),
  origin: fc.constantFrom(ORIGIN, "https://evil.example", "null", ""),
  cookie: fc.constantFrom("", "checkout_token=forged", "authjs.session-token=forged"),
});
const clean = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== ""));
const request: fc.Arbitrary<Req> = fc.oneof(
  fc.tuple(fc.oneof(seg, fc.constantFrom("monthly", "legacy-annual", "lifetime", "MONTHLY")), fc.constantFrom("GET", "POST", "HEAD")).map(([slug, method]) => ({ method, path: `/checkout/plans/${slug}`, headers: {} })),
  fc
    .tuple(fc.constantFrom("courses", "digital-downloads"), fc.oneof(seg, fc.constantFrom("intro-to-sql", "advanced-dashboards", "lightroom-presets", "sql-cheat-sheet", "INTRO-TO-SQL")), fc.constantFrom("GET", "POST", "HEAD"), fc.boolean())
    .map(([kind, slug, method, signedIn]): Req => ({ method, path: `/checkout/${kind}/${slug}`, headers: signedIn ? { cookie } : {} })),
  fc.tuple(fc.record({ plan: planId, course: courseId, download: downloadId, email: text, name: text, price: text, amount: text, currency: text }, { requiredKeys: [] }), formHeaders, fc.boolean()).map(([fields, headers, signedIn]) => ({
    method: "POST",
    path: "/api/checkout",
    headers: clean({ ...headers, ...(signedIn ? { cookie } : {}) }),
    body: new URLSearchParams(fields as Record<string, string>).toString(),
  })),
  fc.tuple(fc.oneof(seg, fc.constant(hostedId)), fc.constantFrom("GET", "POST")).map(([id, method]) => ({ method, path: `/checkout/test/${id}`, headers: {} })),
  fc.tuple(fc.oneof(seg, fc.constant(hostedId)), card, formHeaders).map(([id, number, headers]) => ({
    method: "POST",
    path: `/api/checkout/test/${id}`,
    headers: clean(headers),
    body: new URLSearchParams({ card: number }).toString(),
  })),
  // The return page with anything but the one real checkout (a paid one would complete: that is its job).
  fc.tuple(seg.filter((s) => s !== checkoutId), fc.constantFrom("GET", "POST")).map(([id, method]) => ({ method, path: `/checkout/complete/${id}`, headers: {} })),
);

async function counts() {
  const d = db();
  const [subscriptions, payments, users, checkouts, enrollments, downloadAccess] = await Promise.all([
    d.subscription.count(),
    d.payment.count(),
    d.user.count(),
    d.checkoutSession.count(),
    d.enrollment.count(),
    d.downloadAccess.count(),
  ]);
  return { subscriptions, payments, users, checkouts, enrollments, downloadAccess };
}

describe("checkout endpoints (seeded fuzz)", () => {
  it(`${RUNS} requests: no 5xx, no leak, nothing bought, a checkout only for each 303 start`, async () => {
    const before = await counts();
    let starts = 0;
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const res = await app.fetch(r.path, { method: r.method, headers: r.headers, body: r.method === "POST" ? r.body : undefined, redirect: "manual" });
        const body = await res.text();
        if (r.path === "/api/checkout" && res.status === 303 && res.headers.get("location")?.includes("/checkout/test/")) starts += 1;
        const leak = LEAK.find((re) => re.test(body));
        if ((res.status >= 500 || leak) && failures.length < 20) failures.push(`${res.status} ${r.method} ${r.path.slice(0, 120)} ${JSON.stringify(r.headers)} ${r.body?.slice(0, 200)} ${leak ?? ""} → ${body.slice(0, 200)}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(failures).toEqual([]);
    const after = await counts();
    expect({ ...after, checkouts: after.checkouts - starts }).toEqual(before);
    // No fuzzed card is a paying one: the real checkout is still open.
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: checkoutId } })).status).toBe("open");
  }, 20 * 60_000);
});
