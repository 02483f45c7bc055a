import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { resetEnvCache } from "@/lib/env";
import { startAppServer, type AppServer } from "../../helpers/app-server";

// The bench's floors (bench/floors.ts): raw-driver routes that write to the database, so they
// must not exist unless BENCH_FLOOR_ROUTES=1, which only the bench's own server sets.
let server: AppServer;

const setFlag = (value: string | undefined) => {
  if (value === undefined) delete process.env.BENCH_FLOOR_ROUTES;
  else process.env.BENCH_FLOOR_ROUTES = value;
  resetEnvCache();
};

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  server = await startAppServer();
});
afterAll(async () => {
  setFlag(undefined);
  await server.close();
});

describe("bench floor routes", () => {
  it("answer 404 and write nothing unless BENCH_FLOOR_ROUTES=1", async () => {
    for (const flag of [undefined, "0", "false"]) {
      setFlag(flag);
      const users = await db().user.count();
      const write = await server.fetch("/api/bench/floor-write", { method: "POST" });
      expect(write.status).toBe(404);
      expect((await server.fetch("/api/bench/floor-read")).status).toBe(404);
      expect(await db().user.count()).toBe(users);
    }
  });

  it("floor-write inserts a user and a subscription of theirs in one transaction", async () => {
    setFlag("1");
    const res = await server.fetch("/api/bench/floor-write", { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const id = (await res.text()).trim();
    const sub = await db().subscription.findUnique({ where: { id }, include: { user: true } });
    expect(sub).toMatchObject({ schoolId: DEMO_IDS.school, planId: DEMO_IDS.plans.monthly, state: "active" });
    expect(sub!.user.email).toMatch(/^floor-.*@bench\.schoolhouse\.test$/);
  });

  it("floor-read selects the demo course by its unique index", async () => {
    setFlag("1");
    const res = await server.fetch("/api/bench/floor-read");
    expect(res.status).toBe(200);
    expect((await res.text()).trim()).toBe(DEMO_IDS.courses.introToSql);
  });

  it("only serve their one method", async () => {
    setFlag("1");
    expect((await server.fetch("/api/bench/floor-write")).status).toBe(405);
    expect((await server.fetch("/api/bench/floor-read", { method: "POST" })).status).toBe(405);
  });
});
