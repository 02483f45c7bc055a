import { createHash } from "node:crypto";
import { CURRENT_API_VERSION } from "./api-version";
import { ADMIN_GRAPHQL_PATH } from "./yoga";

// Ids of the demo school (README), so the examples run as they are against `npm start`.
const DEMO_PLAN = "5c400000-0000-4000-8000-000300000001";
const DEMO_COURSE = "5c400000-0000-4000-8000-000700000001";
const SUBSCRIPTION_FIELDS = `id state planId startAt currentPeriodStart currentPeriodEnd endAt nextChargeDate
      cancelAt canceledAt isCanceling isCancellable plan { id name planType } user { id email name }`;

// Arguments are written inline: GraphiQL's tab presets do not reliably carry variables.
export const PLAYGROUND_EXAMPLES: { title: string; query: string }[] = [
  {
    title: "createSubscription",
    query: `mutation CreateSubscription {
  createSubscription(input: {email: "new.member@example.com", name: "New Member", planId: "${DEMO_PLAN}"}) {
    errors
    subscription {
      id state planId startAt currentPeriodStart currentPeriodEnd endAt nextChargeDate
      isCanceling isCancellable createdAt updatedAt
      plan { id name planType interval intervalCount isLifetime price currency }
      user { id email name }
    }
  }
}`,
  },
  {
    title: "updateSubscription",
    query: `mutation UpdateSubscription {
  updateSubscription(input: {id: "<subscription id>", currentPeriodEnd: 1893456000}) {
    errors
    subscription {
      ${SUBSCRIPTION_FIELDS}
    }
  }
}`,
  },
  {
    title: "cancelSubscription",
    query: `mutation CancelSubscription {
  # cancelAtPeriodEnd: true (default) schedules; false or a past customEndedAt cancels now
  cancelSubscription(input: {id: "<subscription id>", cancelAtPeriodEnd: true}) {
    errors
    subscription {
      ${SUBSCRIPTION_FIELDS}
    }
  }
}`,
  },
  {
    title: "enrollStudentToCourse",
    query: `mutation EnrollStudentToCourse {
  enrollStudentToCourse(input: {courseId: "${DEMO_COURSE}", email: "new.member@example.com", name: "New Member"}) {
    errors
    enrollment { id createdAt course { id title } user { id email name } }
  }
}`,
  },
  {
    title: "membershipPlans",
    query: `query MembershipPlans {
  membershipPlans { id name slug planType isLifetime interval intervalCount price currency status }
}`,
  },
  {
    title: "subscription",
    query: `query Subscription {
  subscription(id: "<subscription id>") {
    ${SUBSCRIPTION_FIELDS}
    payments { id amount currency state paidAt }
  }
}`,
  },
  {
    title: "subscriptions",
    query: `query Subscriptions {
  # pass after: "<pageInfo.endCursor>" for the next page; first is 1 to 100
  subscriptions(first: 50) {
    nodes { id state planId currentPeriodEnd isCanceling user { email } }
    pageInfo { hasNextPage endCursor }
  }
}`,
  },
  {
    title: "courses",
    query: `query Courses {
  courses(first: 50) { nodes { id slug title status price currency } }
}`,
  },
];

export const PLAYGROUND_HEADERS = JSON.stringify(
  { "X-Service-API-Key": "paste-your-api-key-here", "API-Version": CURRENT_API_VERSION },
  null,
  2,
);

let cached: Promise<{ html: string; etag: string }> | undefined;

/**
 * GraphiQL for the Admin API. Every script, style and editor worker is inlined from the installed
 * @graphql-yoga/render-graphiql package, so the page works with no CDN and no network.
 *
 * Imported on the first request for the page, not with the route: the package is one 8.6 MB
 * module (GraphiQL's scripts as a string literal, held by V8 as 19 MB of source), and every Admin
 * API request loads this route (docs/benchmarks.md, "Memory", issue 15).
 */
export function playgroundPage(): Promise<{ html: string; etag: string }> {
  cached ??= renderPage().catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function renderPage(): Promise<{ html: string; etag: string }> {
  const { renderGraphiQL } = await import("@graphql-yoga/render-graphiql");
  const html = renderGraphiQL({
    title: "Schoolhouse Admin API",
    endpoint: ADMIN_GRAPHQL_PATH,
    headers: PLAYGROUND_HEADERS,
    defaultHeaders: PLAYGROUND_HEADERS,
    shouldPersistHeaders: true,
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: "headers",
    defaultTabs: PLAYGROUND_EXAMPLES.map((e) => ({
      query: e.query,
      headers: PLAYGROUND_HEADERS,
    })),
  });
  return { html, etag: `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"` };
}

export async function playgroundResponse(request: Request): Promise<Response> {
  const { html, etag } = await playgroundPage();
  const headers = { "content-type": "text/html; charset=utf-8", etag, "cache-control": "no-cache", vary: "accept" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(html, { headers });
}
