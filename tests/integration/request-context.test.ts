// The school of the one request context (lib/tenancy/request-context.ts): which school a host names,
// loaded lazily and at most once per request through the school cache, and served stale from that
// cache while the database is unavailable. Counted by the statements the real client sends.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDbHandle, dbHandle, setDbHandle, type DbHandle } from "@/lib/db/client";
import { createPgDriver } from "@/lib/db/driver";
import { DatabaseUnavailableError } from "@/lib/db/unavailable";
import { resetEnvCache } from "@/lib/env";
import { seedDemo } from "@/lib/startup/seed/seed";
import { requestContext } from "@/lib/tenancy/request-context";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";

let real: DbHandle;

beforeAll(async () => {
  real = dbHandle();
  await seedDemo({ prisma: real.prisma });
  await real.prisma.school.update({ where: { subdomain: "acme-training" }, data: { customDomain: "learn.acme.test" } });
});
afterEach(() => {
  vi.useRealTimers();
  setDbHandle(real);
  clearSchoolCache();
  delete process.env.DEFAULT_SCHOOL;
  resetEnvCache();
});

/** A new request to `host` (its own Headers: its own context). */
const at = (host: string) => requestContext({ url: `http://${host}/`, headers: new Headers({ host }) });

/** SELECTs of the School table sent while `fn` runs. */
async function schoolQueries<T>(fn: () => Promise<T>): Promise<{ result: T; count: number }> {
  let count = 0;
  const stop = dbHandle().onStatement((s) => {
    if (/^\s*SELECT\b/i.test(s.sql) && s.sql.includes('FROM "public"."School"')) count++;
  });
  try {
    return { result: await fn(), count };
  } finally {
    stop();
  }
}

describe("RequestContext.school", () => {
  it("is the school of a subdomain, a custom domain, the bare host's default school; null elsewhere", async () => {
    expect((await at("demo.localhost:3000").school())?.subdomain).toBe("demo");
    expect((await at("learn.acme.test").school())?.subdomain).toBe("acme-training");
    expect((await at("localhost:3000").school())?.subdomain).toBe("demo");
    expect(await at("nope.localhost").school()).toBeNull();
    expect(await at("a.b.localhost").school()).toBeNull();
  });

  it("on the bare host, follows DEFAULT_SCHOOL", async () => {
    process.env.DEFAULT_SCHOOL = "acme-training";
    resetEnvCache();
    expect((await at("localhost:3000").school())?.subdomain).toBe("acme-training");
  });

  it("is loaded lazily, at most once per request, and from the cache for the next request", async () => {
    clearSchoolCache();
    const headers = new Headers({ host: "acme-training.localhost" });
    const ctx = requestContext({ headers });
    // Building the context and reading its origin and host match ask nothing of the database.
    const built = await schoolQueries(async () => [ctx.origin, ctx.match.kind, at("demo.localhost").origin]);
    expect(built.count).toBe(0);
    // Every caller of this request, at once or later, shares one lookup (with an empty cache,
    // concurrent lookups would each go to the database).
    const asked = await schoolQueries(() => Promise.all([ctx.school(), ctx.schoolState(), ctx.school(), requestContext({ headers }).school()]));
    expect(asked.count).toBe(1);
    expect(asked.result.map((r) => (r && "school" in r ? r.school : r)?.subdomain)).toEqual(["acme-training", "acme-training", "acme-training", "acme-training"]);
    // Not even when the cache empties (or expires) meanwhile: the request keeps its answer.
    clearSchoolCache();
    const again = await schoolQueries(async () => [await ctx.school(), await ctx.schoolState(), await requestContext({ headers }).school()]);
    expect(again.count).toBe(0);
    // A new request for the same host: the school cache answers (no round trip on the hot path).
    await at("acme-training.localhost").school();
    const next = await schoolQueries(() => at("acme-training.localhost").schoolState());
    expect(next).toMatchObject({ count: 0, result: { stale: false } });
  });

  it("during a database outage: the cached school, flagged stale; a host never seen is unavailable", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await at("demo.localhost").schoolState()).toMatchObject({ school: { subdomain: "demo" }, stale: false });
    // The cache entry expires, and the database goes away (a server nothing listens on).
    vi.setSystemTime(Date.now() + 60_000);
    const down = createDbHandle(createPgDriver("postgresql://postgres@127.0.0.1:1/none"));
    setDbHandle(down);
    try {
      const state = await at("demo.localhost").schoolState();
      expect(state.stale).toBe(true);
      expect(state.school?.subdomain).toBe("demo");
      expect(await at("demo.localhost").school()).toMatchObject({ subdomain: "demo" });
      await expect(at("learn.acme.test").school()).rejects.toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      setDbHandle(real);
      await down.prisma.$disconnect().catch(() => {});
    }
    // Back: a fresh answer, no longer stale.
    expect(await at("demo.localhost").schoolState()).toMatchObject({ school: { subdomain: "demo" }, stale: false });
  });
});
