// The bare host (localhost:<port>, the platform domain) when DEFAULT_SCHOOL names no school
// (issue 29, item 9): a database with one own school and no demo serves that school there.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { createSchool } from "@/lib/schools/create-school";
import { requestContext } from "@/lib/tenancy/request-context";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { TEST_ACTOR } from "../helpers/audit-actor";

let server: AppServer;

beforeAll(async () => {
  await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "pottery", name: "Clay & Kiln", ownerEmail: "ana@clay.example", now: now() });
  clearSchoolCache();
  server = await startAppServer();
});
afterAll(() => server.close());

const bare = (h = "localhost:3001") => requestContext({ headers: new Headers({ host: h }) }).school();

describe("the bare host without a DEFAULT_SCHOOL school", () => {
  it("serves the only school there is", async () => {
    expect(process.env.DEFAULT_SCHOOL ?? "demo").toBe("demo");
    expect((await bare())?.subdomain).toBe("pottery");
    expect((await bare("127.0.0.1:4000"))?.subdomain).toBe("pottery");
    const llms = await server.fetch("/llms.txt");
    expect(llms.status).toBe(200);
    expect(await llms.text()).toContain("Clay & Kiln");
  });

  it("guesses nothing once there are several, and never serves a disabled school", async () => {
    const second = await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "glass", name: "Glass", ownerEmail: "g@glass.example", now: now() });
    clearSchoolCache();
    expect(await bare()).toBeNull();
    expect((await server.fetch("/llms.txt")).status).toBe(404);
    await db().school.update({ where: { id: second.school.id }, data: { disabledAt: new Date() } });
    clearSchoolCache();
    expect((await bare())?.subdomain).toBe("pottery");
    await db().school.update({ where: { subdomain: "pottery" }, data: { disabledAt: new Date() } });
    clearSchoolCache();
    expect(await bare()).toBeNull();
  });
});
