// The hook point issue 4 (rate limits) plugs into: plugins passed to createAdminHandler run after
// authentication, API-Version and GraphQL validation, before execution, and can set headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { AdminContext } from "@/lib/admin-api/context";
import { createAdminHandler } from "@/lib/admin-api/handler";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { setNow } from "@/lib/clock";
import { DEMO_IDS, FULL_KEY, PLANS, freshEmail } from "./helpers";

const seen: { operationType: string; credentialId: string; schoolId: string }[] = [];
let reject = false;
let failExecution = false;
const marked = new WeakSet<object>();

const probe: Plugin<AdminContext> = {
  onExecute({ args, setResultAndStopExecution, executeFn, setExecuteFn }) {
    if (failExecution) setExecuteFn(async () => ({ errors: [createGraphQLError("database unreachable")] }));
    else setExecuteFn(executeFn);
    const ctx = args.contextValue as AdminContext;
    seen.push({ operationType: ctx.operationType, credentialId: ctx.credential.id, schoolId: ctx.credential.schoolId });
    marked.add(ctx.notes);
    if (reject) {
      setResultAndStopExecution({
        errors: [createGraphQLError("Too many", { extensions: { code: "RATE_LIMITED", http: { status: 429, headers: { "Retry-After": "1" } } } })],
      });
    }
  },
  onResponse({ response, serverContext }) {
    const notes = (serverContext as unknown as { notes?: object }).notes;
    if (notes && marked.has(notes)) response.headers.set("x-probe", "reached");
  },
};

const handle = createAdminHandler({ plugins: [probe] });
const call = (body: unknown, headers: Record<string, string> = {}) =>
  handle(
    new Request("http://localhost/admin/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY, ...headers },
      body: JSON.stringify(body),
    }),
  );

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  setNow(new Date("2026-11-21T12:00:00Z"));
});
afterAll(() => setNow(null));

describe("plugin hook point", () => {
  it("sees the credential and the operation type, and can set response headers", async () => {
    seen.length = 0;
    const q = await call({ query: "{ membershipPlans { id } }" });
    expect(q.status).toBe(200);
    expect(q.headers.get("x-probe")).toBe("reached");
    const m = await call({ query: `mutation { createSubscription(input: {email: "${freshEmail()}", name: "P", planId: "${PLANS.lifetime}"}) { errors } }` });
    expect((await m.json()).data.createSubscription.errors).toEqual([]);
    expect(seen).toEqual([
      { operationType: "query", credentialId: DEMO_IDS.apiKeys.full, schoolId: DEMO_IDS.school },
      { operationType: "mutation", credentialId: DEMO_IDS.apiKeys.full, schoolId: DEMO_IDS.school },
    ]);
  });

  it("is not reached by authentication, API-Version, syntax or validation failures", async () => {
    seen.length = 0;
    const responses = [
      await call({ query: "{ membershipPlans { id } }" }, { "x-service-api-key": "" }),
      await call({ query: "{ membershipPlans { id } }" }, { "api-version": "1999-01" }),
      await call({ query: "{ membershipPlans { id " }),
      await call({ query: "{ nope }" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([401, 400, 200, 200]);
    for (const r of responses) expect(r.headers.get("x-probe")).toBeNull();
    expect(seen).toEqual([]);
  });

  it("can reject before execution with a status and headers; nothing executes", async () => {
    reject = true;
    try {
      const email = freshEmail("rejected");
      const r = await call({ query: `mutation { createSubscription(input: {email: "${email}", name: "R", planId: "${PLANS.monthly}"}) { errors } }` });
      expect(r.status).toBe(429);
      expect(r.headers.get("retry-after")).toBe("1");
      expect((await r.json()).errors[0].extensions.code).toBe("RATE_LIMITED");
      expect(await db().user.findUnique({ where: { email } })).toBeNull();
    } finally {
      reject = false;
    }
  });

  it("an unexpected failure is not stored under an Idempotency-Key: a retry with the key executes", async () => {
    const email = freshEmail("retry");
    const body = { query: `mutation { createSubscription(input: {email: "${email}", name: "R", planId: "${PLANS.monthly}"}) { errors } }` };
    failExecution = true;
    try {
      const first = await call(body, { "idempotency-key": "retry-after-failure" });
      expect((await first.json()).errors[0].message).toBeTruthy();
    } finally {
      failExecution = false;
    }
    const retry = await call(body, { "idempotency-key": "retry-after-failure" });
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect((await retry.json()).data.createSubscription.errors).toEqual([]);
    const replay = await call(body, { "idempotency-key": "retry-after-failure" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
  });
});
