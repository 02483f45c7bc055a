// The staff console's pages over HTTP under hostile addresses (seeded, fast-check), signed in as the
// owner (every page is theirs): every /manage page with any search parameters (q, plan, state,
// after, notice, refused, the audit log's actor, action, target, from and to, unknown and repeated
// names; raw percent-encodings, valid or not) and any
// id in the path. The real server renders each: never a 5xx, no internals in the page, a clear 4xx
// (400 from the edge guard, 404 for an id of no row of this school) or the page, and nothing
// changed (the audit log, which every change writes in its transaction, has no new row). What the
// pages run below Next is fuzzed with more runs in tests/integration/fuzz/console-pages.test.ts.
// FUZZ_E2E_RUNS / FUZZ_SEED for a larger run.
import { request as httpRequest } from "node:http";
import fc from "fast-check";
// As in every Vitest project: a declared maxLength is the generated bound (tests/setup/fast-check.ts).
import "../setup/fast-check";
import { expect, test } from "@playwright/test";
import { DEMO_IDS } from "../../lib/demo-ids";
import { DEFAULT_DEMO_API_KEY as KEY } from "../../lib/demo-secrets";
import { baseURL } from "../../playwright.config";
import { staffBrowser } from "./console-helpers";

const RUNS = Math.ceil(Number(process.env.FUZZ_E2E_RUNS ?? 300) / 5);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const { hostname, port } = new URL(baseURL);
const LEAK = /\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+|node_modules|\.next\/server|\/work\/|PrismaClient|\bSELECT\b.+\bFROM\b|originalError/;

function get(path: string, cookie: string): Promise<{ status: number; body: string; location: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: "GET", path, headers: { host: `localhost:${port}`, cookie, accept: "text/html" }, setHost: false, timeout: 30_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, location: String(res.headers.location ?? "") }));
    });
    req.on("timeout", () => req.destroy(new Error(`hang: GET ${path}`)));
    req.on("error", reject);
    req.end();
  });
}

/** The newest audit row's id: any change through any door writes one in its transaction. */
async function newestAuditRow(): Promise<string | null> {
  const res = await fetch(`${baseURL}/admin/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-api-key": KEY },
    body: JSON.stringify({ query: "{ auditEvents(first: 1) { nodes { id } } }" }),
  });
  const json = (await res.json()) as { data?: { auditEvents: { nodes: { id: string }[] } } };
  expect(json.data, JSON.stringify(json)).toBeTruthy();
  return json.data!.auditEvents.nodes[0]?.id ?? null;
}

const PAGES = ["/manage", "/manage/members", "/manage/members/", "/manage/courses", "/manage/courses/", "/manage/keys", "/manage/webhooks", "/manage/webhooks/", "/manage/apps", "/manage/apps/", "/manage/audit"];
// Path segments as sent: this school's ids, another school's, garbage and broken encodings.
const SEGMENTS = [
  DEMO_IDS.users.student,
  DEMO_IDS.users.acmeEmployee,
  DEMO_IDS.courses.introToSql,
  "00000000-0000-4000-8000-000000000000",
  "ZGVtby1jb25maWRlbnRpYWwtYXBw",
  "not-a-uuid",
  "%zz",
  "%E0%A4%A",
  "%C0%AE%C0%AE",
  "%2e%2e",
  "%F0%9F%98%80",
  "x".repeat(2000),
  "'%20OR%201=1--",
  "__proto__",
  "%3Cscript%3E",
];
const NAMES = ["q", "plan", "state", "after", "notice", "refused", "q", "after", "x", "__proto__", "%71", "actor", "action", "target", "from", "to"];
const VALUES = [
  "",
  "jam",
  "STUDENT%40",
  "%",
  "%25",
  "%zz",
  "%00",
  "%E0%A4%A",
  "%C4%B0".repeat(254),
  "_",
  "%5C",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "'%20OR%201=1%20--",
  "x".repeat(2000),
  "active",
  "ACTIVE",
  "expired",
  DEMO_IDS.plans.monthly,
  DEMO_IDS.plans.acmeAnnual,
  "forged",
  "eyJrIjoiZSIsInYiOiJhIn0",
  "0b6b8b8c-0000-4000-8000-000000000000",
  "inProgress",
  "constructor",
  "api_key",
  "subscription.create",
  "2026-02-31",
  "2026-11-26",
  "9999-12-31",
];

const request = fc.record({
  page: fc.constantFrom(...PAGES),
  segment: fc.constantFrom(...SEGMENTS),
  params: fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES)), { maxLength: 5 }),
});

test(`${RUNS} hostile console addresses, signed in as the owner: no 5xx, no leak, nothing changed`, async ({ browser }) => {
  test.setTimeout(10 * 60_000);
  const { context } = await staffBrowser(browser, "owner@schoolhouse.test", "/manage", { landsOnPath: true });
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const before = await newestAuditRow();
  const failures: string[] = [];
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const path = (r.page.endsWith("/") ? r.page + r.segment : r.page) + (r.params.length ? `?${r.params.map(([k, v]) => `${k}=${v}`).join("&")}` : "");
      const res = await get(path, cookie);
      // A dot segment ("%2e%2e") is resolved by the URL parser: a redirect, on this origin only.
      const sameOriginRedirect = [307, 308].includes(res.status) && (res.location.startsWith("/") ? !res.location.startsWith("//") : res.location.startsWith(`${baseURL}/`));
      const ok = ([200, 400, 404].includes(res.status) || sameOriginRedirect) && !LEAK.test(res.body);
      if (!ok && failures.length < 25) failures.push(`${res.status} GET ${path.slice(0, 300)} → ${res.body.slice(0, 200)}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  expect(failures).toEqual([]);
  expect(await newestAuditRow()).toBe(before);
  await context.close();
});
