// Answers of content-only queries kept in the content cache (lib/admin-api/content-results.ts).
// Differential through the handler: each generated document is answered once right after the cache
// was emptied (an execution) and then again (from the cache when it qualifies); status and body must
// match, and only documents that qualify are served from the cache. Then what must never be cached
// across: a content write, a key without the permission, another school, an answer with errors.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { contentResultCounts } from "@/lib/admin-api/content-results";
import { createAdminHandler } from "@/lib/admin-api/handler";
import { db } from "@/lib/db/client";
import { clearContentCache } from "@/lib/db/content-cache";
import { encodeCourseCursor } from "@/lib/membership/list-courses";
import { seedDemo } from "@/lib/startup/seed/seed";
import { ACME_API_KEY, DEMO_IDS, FULL_KEY, NO_PERMISSIONS_KEY } from "./helpers";

const handler = createAdminHandler();

async function answer(query: string, variables?: Record<string, unknown>, key = FULL_KEY, operationName?: string) {
  const res = await handler(
    new Request("http://localhost/admin/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": key },
      body: JSON.stringify({ query, variables, operationName }),
    }),
  );
  return { status: res.status, body: await res.text() };
}

const served = () => contentResultCounts().served;

const NODE_FIELDS = ["id", "slug", "title", "summary", "status", "price", "currency", "__typename"];
const nodeSelection = fc.subarray(NODE_FIELDS, { minLength: 1 }).map((f) => f.join(" "));
const first = fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constantFrom(0, 100, 101, -1));
const after = fc.oneof(
  fc.constant(null),
  fc.constantFrom("", "not a cursor", "e30"),
  fc.record({ p: fc.integer({ min: -3, max: 12 }), id: fc.uuid() }).map((c) => encodeCourseCursor({ position: c.p, id: c.id })),
);

interface Case {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** Whether the document may be answered from the cache (when it has no errors). */
  qualifies: boolean;
}

const cases: fc.Arbitrary<Case> = fc.oneof(
  fc.tuple(first, nodeSelection).map(([n, sel]) => ({ query: `{ courses(first: ${n}) { nodes { ${sel} } } }`, qualifies: true })),
  fc.tuple(first, after, nodeSelection).map(([n, a, sel]) => ({
    query: `query Page($first: Int, $after: String) { courses(first: $first, after: $after) { nodes { ${sel} } pageInfo { hasNextPage endCursor } } }`,
    variables: { first: n, after: a },
    qualifies: true,
  })),
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean()).map(([n, include]) => ({
    query: `query Some($on: Boolean!) { __typename a: courses(first: ${n}) @include(if: $on) { nodes { id } } b: courses { ...Titles } } fragment Titles on CourseConnection { nodes { title } }`,
    variables: { on: include },
    qualifies: true,
  })),
  fc.constantFrom("One", "Two").map((name) => ({
    query: `query One { courses(first: 1) { nodes { id } } } query Two { courses(first: 2) { nodes { slug } } } mutation Three { __typename }`,
    operationName: name,
    qualifies: true,
  })),
  // Never from the cache: a root fragment, a field that reads more than content, a mutation, nothing but
  // __typename, an invalid document.
  fc.constantFrom<Case>(
    { query: `{ ...Root } fragment Root on Query { courses { nodes { id } } }`, qualifies: false },
    { query: `{ courses { nodes { id } } membershipPlans { id } }`, qualifies: false },
    { query: `mutation { __typename }`, qualifies: false },
    { query: `{ __typename }`, qualifies: false },
    { query: `{ courses { nodes { nope } } }`, qualifies: false },
  ),
);

beforeAll(async () => {
  await seedDemo({ prisma: db() });
});

describe("content-only queries answered from the content cache", () => {
  it("answers every generated document as its execution does, and from the cache only when it qualifies", async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        clearContentCache();
        const executed = await answer(c.query, c.variables, FULL_KEY, c.operationName);
        const before = served();
        const again = await answer(c.query, c.variables, FULL_KEY, c.operationName);
        expect(again).toEqual(executed);
        const clean = executed.status === 200 && !("errors" in JSON.parse(executed.body));
        expect(served() - before).toBe(c.qualifies && clean ? 1 : 0);
      }),
      { seed: 20261127, numRuns: 60 },
    );
  });

  it("shows a content write on the next request (the cached answer is of the older version)", async () => {
    const query = `{ courses(first: 50) { nodes { id title } } }`;
    const title = async () => JSON.parse((await answer(query)).body).data.courses.nodes.find((c: { id: string }) => c.id === DEMO_IDS.courses.introToSql).title;
    const original = await title();
    expect(await title()).toBe(original);
    try {
      await db().course.update({ where: { id: DEMO_IDS.courses.introToSql }, data: { title: "Intro to SQL, revised" } });
      expect(await title()).toBe("Intro to SQL, revised");
    } finally {
      await db().course.update({ where: { id: DEMO_IDS.courses.introToSql }, data: { title: original } });
    }
    expect(await title()).toBe(original);
  });

  it("checks the key's permission on every request: a key without it gets the error, not the cached answer", async () => {
    const query = `{ courses(first: 3) { nodes { id } } }`;
    await answer(query);
    const before = served();
    expect(JSON.parse((await answer(query)).body).data.courses.nodes).toHaveLength(3);
    expect(served()).toBe(before + 1);
    const refused = JSON.parse((await answer(query, undefined, NO_PERMISSIONS_KEY)).body);
    expect(refused.data?.courses ?? null).toBeNull();
    expect(refused.errors[0].extensions.code).toBe("FORBIDDEN");
    expect(served()).toBe(before + 1);
  });

  it("keeps each school's answer apart", async () => {
    const query = `{ courses(first: 100) { nodes { id } } }`;
    const demo = JSON.parse((await answer(query)).body).data.courses.nodes.map((c: { id: string }) => c.id);
    const acme = JSON.parse((await answer(query, undefined, ACME_API_KEY)).body).data.courses.nodes.map((c: { id: string }) => c.id);
    expect(demo).toContain(DEMO_IDS.courses.introToSql);
    expect(acme).not.toContain(DEMO_IDS.courses.introToSql);
    expect(JSON.parse((await answer(query, undefined, ACME_API_KEY)).body).data.courses.nodes.map((c: { id: string }) => c.id)).toEqual(acme);
  });

  it("keeps no answer with errors", async () => {
    const query = `{ courses(first: 0) { nodes { id } } }`;
    const kept = contentResultCounts().kept;
    const first = await answer(query);
    expect(JSON.parse(first.body).errors[0].message).toBe("first must be between 1 and 100");
    expect(await answer(query)).toEqual(first);
    expect(contentResultCounts().kept).toBe(kept);
  });
});
