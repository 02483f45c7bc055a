import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import type { AdminContext } from "./context";
import { databaseUnavailablePlugin } from "./unavailable";

// What Prisma throws when the server is gone (see lib/db/unavailable.test.ts for the shapes).
const outage = () => Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: "P1001" });

const schema = createSchema<AdminContext>({
  typeDefs: `type Query { ok: Int, cut: Int, bug: Int } type Mutation { committed: Int, cut: Int }`,
  resolvers: {
    Query: {
      ok: () => 1,
      cut: () => Promise.reject(outage()),
      bug: () => Promise.reject(new TypeError("a bug")),
    },
    Mutation: { committed: () => 1, cut: () => Promise.reject(outage()) },
  },
});

function yoga(extra: Plugin<AdminContext>[] = []) {
  // The plugin is the outermost execute wrapper, as in createAdminYoga.
  return createYoga<object, AdminContext>({ schema, plugins: [...extra, databaseUnavailablePlugin()], maskedErrors: true, logging: false });
}

async function post(y: ReturnType<typeof yoga>, query: string) {
  const res = await y.fetch("http://x/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Record<string, unknown> };
}

describe("databaseUnavailablePlugin", () => {
  it("a field cut by the outage: 503, Retry-After, SERVICE_UNAVAILABLE at its path; other fields keep their data", async () => {
    const r = await post(yoga(), "mutation { committed cut }");
    expect(r.status).toBe(503);
    expect(r.retryAfter).toBe("5");
    expect(r.body.data).toEqual({ committed: 1, cut: null });
    expect(r.body.errors).toEqual([
      expect.objectContaining({ path: ["cut"], extensions: { code: "SERVICE_UNAVAILABLE" }, message: expect.stringMatching(/temporarily unavailable/) }),
    ]);
  });

  it("an outage thrown by an execute wrapper (idempotency bookkeeping) is a 503 too", async () => {
    const throwing: Plugin<AdminContext> = {
      onExecute: ({ setExecuteFn }) => setExecuteFn(() => Promise.reject(outage())),
    };
    const r = await post(yoga([throwing]), "{ ok }");
    expect(r.status).toBe(503);
    expect(r.retryAfter).toBe("5");
    expect((r.body.errors as Array<{ extensions: unknown }>)[0]!.extensions).toEqual({ code: "SERVICE_UNAVAILABLE" });
  });

  it("leaves other errors and successes alone", async () => {
    const bug = await post(yoga(), "{ ok bug }");
    expect(bug.status).toBe(200);
    expect(bug.retryAfter).toBeNull();
    expect((bug.body.errors as Array<{ message: string }>)[0]!.message).toBe("Unexpected error.");
    const ok = await post(yoga(), "{ ok }");
    expect(ok).toMatchObject({ status: 200, body: { data: { ok: 1 } } });
  });
});
