// The playground's example operations and GraphiQL options (the page and its assets: playground.ts).
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
  {
    title: "members",
    query: `query Members {
  # search: email or name prefix; planId and state: members with such a subscription
  members(first: 50, search: "ada", state: "active") {
    nodes { id email name roles joinedAt }
    pageInfo { hasNextPage endCursor }
  }
}`,
  },
  {
    title: "member",
    query: `query Member {
  member(id: "<member id>") { id email name emailVerified roles joinedAt }
}`,
  },
  {
    title: "enrollments",
    query: `query Enrollments {
  # userId and/or courseId narrow the list; pass after: "<pageInfo.endCursor>" for the next page
  enrollments(first: 50) {
    nodes { id createdAt course { id title } user { id email name } }
    pageInfo { hasNextPage endCursor }
  }
}`,
  },
];

/**
 * The headers every tab starts with. The API key is not among them: the page asks for it once and
 * adds it to every request of the session (playground-page.ts), whichever tab sends it.
 */
export const PLAYGROUND_HEADERS = JSON.stringify({ "API-Version": CURRENT_API_VERSION }, null, 2);

/** GraphiQL's options: endpoint, the example tabs and their headers. */
export function playgroundOptions() {
  return {
    title: "Schoolhouse Admin API",
    endpoint: ADMIN_GRAPHQL_PATH,
    headers: PLAYGROUND_HEADERS,
    defaultHeaders: PLAYGROUND_HEADERS,
    shouldPersistHeaders: false,
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: "headers",
    defaultTabs: PLAYGROUND_EXAMPLES.map((e) => ({ query: e.query, headers: PLAYGROUND_HEADERS })),
  };
}
