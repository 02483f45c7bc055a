// Who the login page is for (issue 18): the school and its validated colour, and the application
// asking when the login continues /oauth/authorize. The page renders these as React text.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { loginContext } from "@/lib/oauth/login-context";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";

const at = (host: string, callbackUrl: string) => loginContext({ headers: new Headers({ host }), callbackUrl });
const authorize = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params)}`;

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  await db().school.update({ where: { id: DEMO_IDS.acmeSchool }, data: { brandColor: "#0b6e4f" } });
});

describe("loginContext", () => {
  it("a plain login belongs to the host's school, with no application", async () => {
    expect(await at("demo.localhost", "/")).toEqual({ school: { name: "Schoolhouse Demo Academy", brandColor: null }, clientName: null });
    expect(await at("acme-training.localhost", "/welcome")).toEqual({ school: { name: "Acme Corp Training", brandColor: "#0b6e4f" }, clientName: null });
    expect((await at("nope.localhost", "/")).school).toBeNull();
  });

  it("an authorize callback names the client, and the school of school_id or of the host", async () => {
    expect(await at("localhost", authorize({ client_id: "demo-public-app" }))).toEqual({ school: null, clientName: "Demo Public App" });
    expect(await at("localhost", authorize({ client_id: "demo-public-app", school_id: DEMO_IDS.acmeSchool }))).toEqual({
      school: { name: "Acme Corp Training", brandColor: "#0b6e4f" },
      clientName: "Demo Public App",
    });
    expect((await at("demo.localhost", authorize({ client_id: "demo-public-app" }))).school?.name).toBe("Schoolhouse Demo Academy");
  });

  it("unknown clients and schools show nothing rather than failing", async () => {
    expect(await at("localhost", authorize({ client_id: "<script>nope</script>", school_id: "not-a-uuid" }))).toEqual({ school: null, clientName: null });
    expect(await at("localhost", authorize({ school_id: "00000000-0000-4000-8000-000000000000" }))).toEqual({ school: null, clientName: null });
    // A callback elsewhere never looks the client up.
    expect((await at("localhost", "/oauth/authorizeX?client_id=demo-public-app")).clientName).toBeNull();
  });

  it("a brand colour that is not #rrggbb is dropped (no CSS injection)", async () => {
    await db().school.update({ where: { id: DEMO_IDS.acmeSchool }, data: { brandColor: "red;} body{display:none" } });
    clearSchoolCache();
    expect((await at("acme-training.localhost", "/")).school).toEqual({ name: "Acme Corp Training", brandColor: null });
    await db().school.update({ where: { id: DEMO_IDS.acmeSchool }, data: { brandColor: "#0b6e4f" } });
    clearSchoolCache();
  });
});
