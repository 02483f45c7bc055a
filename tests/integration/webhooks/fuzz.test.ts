// Hostile input to the webhook operations (seeded, property-based): never a 5xx or a leaked internal,
// always the payload's errors array or a GraphQL error, and an endpoint is created only from input
// the rules accept (https on a public address, known event types, a short description).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { adminAppForSuite, gql } from "../admin-api/helpers";

const app = adminAppForSuite();
const SEED = 1414;

const hostileString = fc.oneof(
  fc.constantFrom(
    "https://127.0.0.1/x", "https://[::ffff:10.0.0.1]/", "https://0x7f000001/", "https://169.254.169.254/", "file:///etc/passwd",
    "gopher://x", "javascript:alert(1)", "https://example.com:99999/", "https://ex ample.com/", "'; DROP TABLE \"WebhookEndpoint\"; --",
    "*", "subscription.*", "member.created\u0000", "00000000-0000-4000-8000-000000000000", "x".repeat(3000),
  ),
  fc.string({ maxLength: 60 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
).map((s) => s.replace(/\u0000/g, ""));

const CREATE = `mutation C($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { errors secret endpoint { id url events } } }`;
const UPDATE = `mutation U($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { errors endpoint { id } } }`;
const REDELIVER = `mutation R($input: RedeliverWebhookEventInput!) { redeliverWebhookEvent(input: $input) { errors deliveries { id } } }`;
const DELIVERIES = `query Q($endpointId: String, $eventId: String, $status: String, $first: Int) { webhookDeliveries(endpointId: $endpointId, eventId: $eventId, status: $status, first: $first) { id } }`;

function noInternals(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/prisma|stack|at \w+ \(|ECONN|invalid input syntax|PostgresError|P20\d\d/i);
}

describe("webhook operations under hostile input", () => {
  it("createWebhookEndpoint: 200 with errors, or an endpoint whose URL is public https", async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, fc.array(hostileString, { maxLength: 4 }), fc.option(hostileString), async (url, events, description) => {
        const before = await db().webhookEndpoint.count();
        const r = await gql(app, CREATE, { input: { url, events, description } });
        expect(r.status).toBeLessThan(500);
        noInternals(r.body);
        const p = r.body.data?.createWebhookEndpoint;
        if (!p || p.errors.length) {
          expect(await db().webhookEndpoint.count()).toBe(before);
          return;
        }
        expect(p.endpoint.url).toMatch(/^https:\/\//);
        expect(p.secret).toMatch(/^whsec_/);
        await db().webhookEndpoint.delete({ where: { id: p.endpoint.id } });
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it("update, redeliver and webhookDeliveries: never a 5xx, never a change from a refused input", async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, hostileString, fc.option(fc.integer({ min: -5, max: 500 })), async (a, b, first) => {
        for (const [query, variables] of [
          [UPDATE, { input: { id: a, url: b, events: [b] } }],
          [REDELIVER, { input: { eventId: a, endpointId: b } }],
          [DELIVERIES, { endpointId: a, eventId: b, status: b, first }],
        ] as const) {
          const r = await gql(app, query, variables);
          expect(r.status).toBeLessThan(500);
          noInternals(r.body);
        }
        expect(await db().webhookDelivery.count()).toBe(0);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});
