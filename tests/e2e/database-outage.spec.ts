// A database outage through the real server (`next start`, proxy.ts, server-component pages) on a
// Postgres of this test's own: built HTML pages keep answering 200 marked stale, pages never built
// answer a 503 HTML page, the Admin API a GraphQL 503, and everything recovers by itself.
// tests/pg/database-outage.test.ts covers every route handler under load.
import { expect, test } from "@playwright/test";
import { freePort } from "../helpers/outage";
import { createPgCluster, postgresBinDir, type PgCluster } from "../helpers/pg-cluster";
import { createSpecDatabase, startProductionServer, type ProductionServer } from "./next-server";

const binDir = postgresBinDir();
// Production on DATABASE_URL seeds random demo credentials and logs them once.
let apiKey = "";
const STALE = '110 - "Response is Stale"';
const BUILT = "/courses/intro-to-sql";
const NEVER_BUILT = "/posts/five-sql-mistakes";

let cluster: PgCluster | undefined;
let server: ProductionServer | undefined;
let origin = "";

test.describe("database outage through next start", () => {
  test.skip(!binDir, "initdb not found: install the PostgreSQL server package (or set PG_BIN_DIR) to run the outage test");

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    cluster = createPgCluster({ port: await freePort(5470, 5479), binDir: binDir! });
    const database = await createSpecDatabase({ adminUrl: cluster.url(), prefix: "app" });
    const base = Number(process.env.E2E_PORT ?? 3100);
    const port = await freePort(base + 3, base + 9);
    server = await startProductionServer({
      port,
      databaseUrl: database.url,
      // Every request checks the content version, so the outage is met at once.
      env: { AUTH_SECRET: "outage-e2e-secret-outage-e2e-secret-outage", STOREFRONT_REVALIDATE_MS: "0" },
    });
    origin = server.origin;
    apiKey = /\bapi_key=(\S+)/.exec(server.server.output())?.[1] ?? "";
    if (!apiKey) throw new Error(`no demo API key in the start-up log: ${server.server.output()}`);
  });

  test.afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  });

  const gql = (query: string) =>
    fetch(`${origin}/admin/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": apiKey },
      body: JSON.stringify({ query }),
    });

  test("built pages stay readable (stale), others and the Admin API answer 503, and it recovers by itself", async ({ page }) => {
    test.setTimeout(120_000);
    // Before: the page and its markdown twin are built once.
    const html = await fetch(`${origin}${BUILT}`);
    expect(html.status).toBe(200);
    const title = /<h1[^>]*>([^<]+)<\/h1>/.exec(await html.text())?.[1];
    expect(title).toBeTruthy();
    expect((await fetch(`${origin}${BUILT}`, { headers: { accept: "text/markdown" } })).status).toBe(200);
    expect((await gql("query { membershipPlans { id } }")).status).toBe(200);

    cluster!.stop("immediate");

    // The built page: 200, the same content, marked stale.
    const stale = await fetch(`${origin}${BUILT}`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get("warning")).toBe(STALE);
    expect(await stale.text()).toContain(title!);
    const staleMd = await fetch(`${origin}${BUILT}`, { headers: { accept: "text/markdown" } });
    expect(staleMd.status).toBe(200);
    expect(staleMd.headers.get("warning")).toBe(STALE);

    // In a browser: the stale page renders normally.
    await page.goto(`${origin}${BUILT}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title!);

    // A page never built: a clear 503 page with Retry-After, never a 500.
    const missing = await fetch(`${origin}${NEVER_BUILT}`);
    expect(missing.status).toBe(503);
    expect(missing.headers.get("retry-after")).toBe("5");
    expect(missing.headers.get("content-type")).toContain("text/html");
    expect(await missing.text()).toContain("Temporarily unavailable");
    const missingMd = await fetch(`${origin}${NEVER_BUILT}`, { headers: { accept: "text/markdown" } });
    expect(missingMd.status).toBe(503);
    expect(missingMd.headers.get("content-type")).toContain("text/markdown");

    // The Admin API: a GraphQL error with SERVICE_UNAVAILABLE.
    const admin = await gql("query { membershipPlans { id } }");
    expect(admin.status).toBe(503);
    expect(admin.headers.get("retry-after")).toBe("5");
    expect(((await admin.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe("SERVICE_UNAVAILABLE");

    // OAuth authorize: an HTML page for the member.
    const authorize = await fetch(`${origin}/oauth/authorize?response_type=code&client_id=demo-public-app&redirect_uri=${encodeURIComponent("http://localhost:3000/oauth/callback")}`);
    expect(authorize.status).toBe(503);
    expect(await authorize.text()).toContain("Temporarily unavailable");

    // Member pages (server components: login, consent, password setup) are checked by the proxy
    // before they render: a clear 503 page, never a 500.
    for (const path of ["/login", "/oauth/consent?client_id=demo-public-app", "/account/set-password?token=x"]) {
      const res = await fetch(`${origin}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(503);
      expect(res.headers.get("retry-after"), path).toBe("5");
      expect(await res.text(), path).toContain("Temporarily unavailable");
    }

    expect((await fetch(`${origin}/api/health/ready`)).status).toBe(503);

    // Back: ready within a second, without a restart, and pages fresh again.
    cluster!.start();
    const started = performance.now();
    await expect.poll(async () => (await fetch(`${origin}/api/health/ready`)).status, { timeout: 1_000, intervals: [25] }).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    const fresh = await fetch(`${origin}${BUILT}`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("warning")).toBeNull();
    expect((await fetch(`${origin}${NEVER_BUILT}`)).status).toBe(200);
    expect((await gql("query { membershipPlans { id } }")).status).toBe(200);
    expect(server!.server.output()).not.toMatch(/\n\s+at /);
  });
});
