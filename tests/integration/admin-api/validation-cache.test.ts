// Documents with inlined values are validated once per literal shape (lib/admin-api/validation-cache.ts).
// Differential through the handler: the same generated documents (inline string literals: fresh,
// repeated, with NUL, at the wrong type, conflicting aliases, unknown fields) go to the normal
// handler and to one whose extra plugin adds a validation rule the cache cannot classify, which
// turns it off; status and body must match. Only reads and refused writes are generated, so both
// see the same data. Then the bench's createSubscription with a fresh email each time.
import fc from "fast-check";
import type { ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminContext } from "@/lib/admin-api/context";
import { createAdminHandler } from "@/lib/admin-api/handler";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { markContentBlind } from "@/lib/admin-api/validation-cache";
import { FULL_KEY, PLANS } from "./helpers";

const cached = createAdminHandler();
const reportsNothing: ValidationRule = () => ({});
const uncached = createAdminHandler({
  plugins: [{ onValidate: ({ addValidationRule }) => addValidationRule(reportsNothing) } satisfies Plugin<AdminContext>],
});

const S = "§";
const templates = [
  // A refused write: planId is never a plan (not a UUID, or a UUID of none), so nothing is written.
  `mutation BenchCreate { createSubscription(input: { email: ${S}, name: ${S}, planId: ${S} }) { errors subscription { id state } } }`,
  `{ a: subscription(id: ${S}) { id } a: subscription(id: ${S}) { id } }`,
  `{ subscriptions(first: 2, email: ${S}, state: ${S}) { nodes { id } } }`,
  `{ courses(first: ${S}) { nodes { id } } }`,
  `query Q($e: String = ${S}) { subscriptions(email: $e) { nodes { id planId } } membershipPlans { id } }`,
  `{ subscription(id: ${S}) { id nope } }`,
];
const contents = fc.oneof(
  fc.constantFrom("new@example.test", "new@example.test", "not-an-email", "", "x\u0000y", "00000000-0000-4000-8000-000000000000", "quote \" and \\", "☃"),
  fc.string({ maxLength: 8 }),
);
const documents = fc
  .array(fc.record({ template: fc.integer({ min: 0, max: templates.length - 1 }), fills: fc.array(fc.array(contents, { minLength: 3, maxLength: 3 }), { minLength: 2, maxLength: 5 }) }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((groups) =>
    groups.flatMap((g) =>
      g.fills.map((fill) => {
        let i = 0;
        return templates[g.template]!.replace(/§/g, () => JSON.stringify(fill[i++]));
      }),
    ),
  );

async function answer(handler: (r: Request) => Promise<Response>, query: string) {
  const res = await handler(
    new Request("http://localhost/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY }, body: JSON.stringify({ query }) }),
  );
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  await seedDemo({ prisma: db() });
});

describe("validation once per literal shape", () => {
  it("answers generated inline-literal documents as a handler without the cache does (status, body)", async () => {
    await fc.assert(
      fc.asyncProperty(documents, async (queries) => {
        for (const query of queries) expect(await answer(cached, query)).toEqual(await answer(uncached, query));
      }),
      { seed: 1525, numRuns: 40 },
    );
  });

  it("validates a new text of a known shape without the full rule set (a content-blind rule runs once per shape)", async () => {
    let runs = 0;
    const spy = markContentBlind(() => {
      runs++;
      return {};
    });
    const counted = createAdminHandler({ plugins: [{ onValidate: ({ addValidationRule }) => addValidationRule(spy) } satisfies Plugin<AdminContext>] });
    const query = (id: string) => `{ subscription(id: "${id}") { id } }`;
    expect((await answer(counted, query("a"))).status).toBe(200);
    expect((await answer(counted, query("b"))).status).toBe(200);
    expect((await answer(counted, query("c"))).status).toBe(200);
    expect(runs).toBe(1);
    expect((await answer(counted, `{ x: subscription(id: "a") { id } }`)).status).toBe(200);
    expect(runs).toBe(2);
  });

  it("creates a subscription for each fresh email inlined in the document (the bench's request)", async () => {
    const create = (email: string) =>
      answer(cached, `mutation BenchCreate { createSubscription(input: { email: "${email}", name: "Shape", planId: "${PLANS.monthly}" }) { errors subscription { id state } } }`);
    const emails = [0, 1, 2].map((i) => `shape-${i}-${Date.now().toString(36)}@example.test`);
    for (const email of emails) {
      const { status, body } = await create(email);
      expect(status).toBe(200);
      expect(JSON.parse(body).data.createSubscription).toMatchObject({ errors: [], subscription: { state: "active" } });
    }
    const users = await db().user.findMany({ where: { email: { in: emails } } });
    expect(users).toHaveLength(3);
    // The same shape with a NUL in the email is still refused before anything runs.
    const nul = await create("nul\\u0000@example.test");
    expect(nul.status).toBe(400);
    expect(nul.body).toContain("NUL");
  });
});
