// A plain JSON POST skips yoga's HTTP layer (lib/admin-api/handler.ts, answerDirectly) and must
// answer exactly as yoga.fetch does. Differential and property-based: the same generated requests go
// to a handler that takes the direct path and to one that an extra plugin with an onRequest hook
// keeps on yoga.fetch; status, headers and body must match. Only reads and refused writes are
// generated, so the two handlers see the same data.
import fc from "fast-check";
import type { Plugin } from "graphql-yoga";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminContext } from "@/lib/admin-api/context";
import { createAdminHandler } from "@/lib/admin-api/handler";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { FULL_KEY, NO_PERMISSIONS_KEY, PLANS } from "./helpers";

const direct = createAdminHandler();
const keepsYogaFetch: Plugin<AdminContext> = { onRequest() {} };
const viaYoga = createAdminHandler({ plugins: [keepsYogaFetch] });

const queries = [
  "{ __typename }",
  "query Plans { membershipPlans { id name } }",
  "query A { __typename } query B { membershipPlans { id } }",
  "{ courses(first: 2) { nodes { id title } } }",
  "{ nope }",
  "{ membershipPlans { id ",
  "query($n: Int!) { courses(first: $n) { nodes { id } } }",
  `mutation { createSubscription(input: {email: "not-an-email", name: "X", planId: "${PLANS.lifetime}"}) { errors } }`,
  "subscription { __typename }",
  " ",
];
const accepts = [
  undefined,
  "*/*",
  "application/json",
  "application/graphql-response+json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "text/event-stream",
  "multipart/mixed",
  "application/json, text/event-stream",
  "text/event-stream, application/json",
  "application/*",
  "text/plain",
  "application/graphql-response+json, application/json;q=0.9",
];
const request = fc.record({
  query: fc.option(fc.constantFrom<unknown>(...queries, 42, null, ["{ __typename }"]), { nil: undefined }),
  operationName: fc.option(fc.constantFrom<unknown>("A", "B", "Plans", "Missing", 1, null), { nil: undefined }),
  variables: fc.option(fc.constantFrom<unknown>({ n: 1 }, { n: "x" }, {}, null, "{}", [1]), { nil: undefined }),
  extensions: fc.option(fc.constantFrom<unknown>({}, { persistedQuery: { version: 1 } }, "x", null), { nil: undefined }),
  extra: fc.option(fc.constantFrom<unknown>("x", null, 1), { nil: undefined }),
  accept: fc.constantFrom(...accepts),
  contentType: fc.constantFrom("application/json", "application/json; charset=utf-8", "application/graphql+json"),
  key: fc.constantFrom(FULL_KEY, NO_PERMISSIONS_KEY),
  path: fc.constantFrom("/admin/graphql", "/admin/graphql/", "/admin/graphql?x=1"),
});
type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never;

function toRequest(g: Generated): Request {
  const body: Record<string, unknown> = {};
  for (const key of ["query", "operationName", "variables", "extensions", "extra"] as const) if (g[key] !== undefined) body[key] = g[key];
  const headers: Record<string, string> = { "content-type": g.contentType, "x-service-api-key": g.key };
  if (g.accept !== undefined) headers.accept = g.accept;
  return new Request(`http://localhost${g.path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

async function answer(handler: (r: Request) => Promise<Response>, g: Generated) {
  const res = await handler(toRequest(g));
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== "date"));
  return { status: res.status, headers, body: await res.text() };
}

beforeAll(async () => {
  await seedDemo({ prisma: db() });
});

describe("the direct path answers as yoga.fetch does", () => {
  it("for generated single-operation POSTs (status, headers, body)", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (g) => {
        expect(await answer(direct, g)).toEqual(await answer(viaYoga, g));
      }),
      { seed: 1523, numRuns: 300 },
    );
  });

  it("an extra plugin that hooks yoga's HTTP layer still runs: such a handler keeps every request on yoga.fetch", async () => {
    let hooked = 0;
    const counting = createAdminHandler({ plugins: [{ onRequest: () => void hooked++ } satisfies Plugin<AdminContext>] });
    const g: Generated = { query: "{ __typename }", operationName: undefined, variables: undefined, extensions: undefined, extra: undefined, accept: undefined, contentType: "application/json", key: FULL_KEY, path: "/admin/graphql" };
    expect((await answer(counting, g)).status).toBe(200);
    expect(hooked).toBe(1);
    expect(await answer(direct, g)).toEqual(await answer(viaYoga, g));
  });
});
