import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Browser } from "@playwright/test";
import { RecordingAuthProvider } from "../helpers/mcp-auth-provider";
import { MCP_TOOLS } from "../helpers/mcp-tools";

// What the README promises: an MCP client added with {origin}/mcp signs the member in (the SDK's
// auth() with Chromium doing login, school choice and consent), then uses the tools.
const CALLBACK = "http://127.0.0.1:49153/callback";

// The pre-registered client that discovery advertises as mcp_client_id.
const mcpClientProvider = () => new RecordingAuthProvider(CALLBACK, { client_id: "schoolhouse-mcp" });
type BrowserProvider = RecordingAuthProvider;

async function signInAgent(browser: Browser, mcpUrl: string, email: string): Promise<BrowserProvider> {
  const provider = mcpClientProvider();
  expect(await auth(provider, { serverUrl: mcpUrl })).toBe("REDIRECT");
  const authorizationUrl = provider.authorizationUrl!;
  expect(authorizationUrl.searchParams.get("resource")).toBe(mcpUrl);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route("http://127.0.0.1:49153/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "agent callback" }));
  await page.goto(authorizationUrl.toString());
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/oauth\/(select-school|consent)\?/);
  if (page.url().includes("/oauth/select-school")) {
    await page.getByLabel("Schoolhouse Demo Academy").check();
    await page.getByRole("button", { name: "Continue" }).click();
  }
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("heading", { name: "Allow Schoolhouse MCP to access your account?" })).toBeVisible();
  // Each scope in plain words.
  await expect(page.getByText("If you are staff: create, change and cancel members' subscriptions")).toBeVisible();
  await expect(page.getByText("If you are staff: enroll people in the school's courses")).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:49153\/callback\?/);
  const code = new URL(page.url()).searchParams.get("code")!;
  await context.close();

  expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: code })).toBe("AUTHORIZED");
  expect(provider.saved!.access_token).toMatch(/^sha_/);
  return provider;
}

async function connect(mcpUrl: string, provider: BrowserProvider): Promise<Client> {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

test("an admin's agent finds a course, creates, updates and cancels a subscription and enrolls a student", async ({ browser, baseURL }) => {
  const mcpUrl = `${baseURL}/mcp`;
  const client = await connect(mcpUrl, await signInAgent(browser, mcpUrl, "admin@schoolhouse.test"));
  const { tools } = await client.listTools();
  // Every tool, the webhook management tools (issue 14) included: the server lists all of them and
  // each call checks the caller's scope and role.
  expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());

  const found = await call(client, "search_catalog", { query: "sql", kind: "course" });
  const course = (found.structuredContent as { results: Array<{ slug: string; url: string }> }).results.find((r) => r.slug === "intro-to-sql")!;
  expect(course.url).toBe(`${baseURL}/courses/intro-to-sql`);
  const page = await call(client, "get_page", { url: course.url });
  expect((page.structuredContent as { markdown: string }).markdown).toContain("Intro to SQL");

  const plans = (await call(client, "list_membership_plans")).structuredContent as { plans: Array<{ id: string; slug: string; planType: string }> };
  const monthly = plans.plans.find((p) => p.planType === "recurring")!;
  const email = `e2e-${Date.now()}@example.com`;
  const dry = await call(client, "create_subscription", { email, name: "E2E Member", planId: monthly.id, dry_run: true });
  expect(dry.structuredContent).toMatchObject({ dryRun: true });
  const created = await call(client, "create_subscription", { email, name: "E2E Member", planId: monthly.id, idempotency_key: `e2e-${email}` });
  const sub = (created.structuredContent as { subscription: { id: string; currentPeriodEnd: number } }).subscription;
  const end = sub.currentPeriodEnd + 7 * 86400;
  expect((await call(client, "update_subscription", { id: sub.id, currentPeriodEnd: end })).structuredContent).toMatchObject({ subscription: { currentPeriodEnd: end } });
  expect((await call(client, "cancel_subscription", { id: sub.id })).structuredContent).toMatchObject({ subscription: { isCanceling: true } });

  const detail = await call(client, "list_subscriptions", { email });
  expect((detail.structuredContent as { subscriptions: unknown[] }).subscriptions).toHaveLength(1);

  // The course id comes from the Admin data the staff tools share.
  const courseId = await (async () => {
    const res = await fetch(`${baseURL}/admin/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": "sh_demofull_demo-admin-key-all-permissions-dev-only" },
      body: JSON.stringify({ query: "{ courses(first: 100) { nodes { id slug } } }" }),
    });
    const body = (await res.json()) as { data: { courses: { nodes: Array<{ id: string; slug: string }> } } };
    return body.data.courses.nodes.find((c) => c.slug === "intro-to-sql")!.id;
  })();
  const enrolled = await call(client, "enroll_student", { courseId, email: "student@schoolhouse.test" });
  expect(enrolled.structuredContent).toMatchObject({ enrollment: { course: { slug: "intro-to-sql" } } });
  await client.close();
});

test("a student's agent reads the catalog and their own subscriptions only", async ({ browser, baseURL }) => {
  const mcpUrl = `${baseURL}/mcp`;
  const client = await connect(mcpUrl, await signInAgent(browser, mcpUrl, "student@schoolhouse.test"));
  expect((await call(client, "search_catalog", { query: "" })).isError).toBeFalsy();
  expect((await call(client, "get_my_profile")).structuredContent).toMatchObject({ email: "student@schoolhouse.test", roles: ["student"] });
  expect((await call(client, "list_my_subscriptions")).isError).toBeFalsy();
  const refused = await call(client, "list_subscriptions");
  expect(refused.isError).toBe(true);
  expect(textOf(refused)).toMatch(/is for staff/);
  await client.close();
});
