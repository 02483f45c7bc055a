// The bench's llms-full workload against the real storefront: on the demo seed /llms-full.txt is
// one bundle holding the demo course; once a school's content outgrows the budget (the large
// dataset's 500 courses) the same URL answers the index of parts, and the workload must measure
// that rather than report the large school's row unavailable (as the 05:24 full run did).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKLOADS, type WorkloadContext } from "@/bench/workloads";
import type { PreparedCredentials } from "@/bench/prepare-db";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";

const app = appForSuite({});
const llmsFull = WORKLOADS.find((w) => w.id === "llms-full")!;
const context = (): WorkloadContext => ({ origin: app.url, runId: "test", connections: 1, creds: {} as PreparedCredentials });

describe("the llms-full workload", () => {
  it("measures the whole bundle on the demo seed", async () => {
    expect(await llmsFull.prepare(context())).toHaveProperty("spec");
    expect(await (await app.fetch("/llms-full.txt")).text()).toContain("Intro to SQL");
  });

  describe("past the budget", () => {
    const bulk = Array.from({ length: 40 }, (_, i) => `bench-bulk-${i + 1}`);
    beforeAll(async () => {
      const body = "A long lesson plan. ".repeat(160);
      await db().course.createMany({
        data: bulk.map((slug, i) => ({ schoolId: DEMO_IDS.school, slug, title: `Bulk ${i + 1}`, summary: "Bulk", body, position: 100 + i })),
      });
    });
    afterAll(async () => {
      await db().course.deleteMany({ where: { schoolId: DEMO_IDS.school, slug: { in: bulk } } });
    });

    it("measures the index of parts the same URL answers", async () => {
      const index = await (await app.fetch("/llms-full.txt")).text();
      expect(index).toContain("## Parts");
      expect(index).not.toContain("Intro to SQL");
      expect(await llmsFull.prepare(context())).toHaveProperty("spec");
    });
  });
});
