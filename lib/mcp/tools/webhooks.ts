import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { QueryInputError } from "../../core/page";
import { createWebhookEndpoint } from "../../webhooks/create-endpoint";
import { deleteWebhookEndpoint } from "../../webhooks/delete-endpoint";
import { listWebhookDeliveries } from "../../webhooks/list-deliveries";
import { listWebhookEndpoints } from "../../webhooks/list-endpoints";
import { WEBHOOK_EVENT_TYPES } from "../../db/outbox";
import { presentDelivery, presentEndpoint, type DeliveryWire, type EndpointWire } from "../../webhooks/presenter";
import { redeliverWebhookEvent } from "../../webhooks/redeliver-event";
import { rotateWebhookSecret } from "../../webhooks/rotate-secret";
import { updateWebhookEndpoint } from "../../webhooks/update-endpoint";
import { MAX_ENDPOINT_DESCRIPTION_LENGTH, MAX_ENDPOINT_URL_LENGTH } from "../../webhooks/endpoint-input";
import { WEBHOOK_DELIVERY_STATUSES } from "../../webhooks/list-deliveries";
import { fail, ok } from "../results";
import { pageSizeInput, webhookDeliverySchema, webhookEndpointSchema, writeOptions } from "../schemas";
import type { ToolRegistrar } from "../tool-registrar";
import { mcpActor } from "../context";
import { write, writeAnnotations } from "./staff";

type WebhookTool =
  | "list_webhook_endpoints"
  | "create_webhook_endpoint"
  | "update_webhook_endpoint"
  | "delete_webhook_endpoint"
  | "rotate_webhook_secret"
  | "list_webhook_deliveries"
  | "redeliver_webhook_event";

// The Admin API's webhook operations (lib/webhooks verbs, same rules and messages) as staff tools.

const EVENTS_HELP = `event types: ${WEBHOOK_EVENT_TYPES.join(", ")}, or "*" for all`;
const SECRET_NOTE = "Store this secret now: it is shown this once and can only be replaced (rotate_webhook_secret), never shown again.";
const REPLAY_NOTE = "Replay of an earlier call: the secret was shown in that call's answer only and is not kept.";

const describeEndpoint = (e: EndpointWire) =>
  `${e.url} (${e.events.join(", ")})${e.enabled ? "" : `, disabled: ${e.disabledReason ?? "by the school"}`}, id ${e.id}`;
const describeDelivery = (d: DeliveryWire) =>
  `${d.eventType} event ${d.eventId} → endpoint ${d.endpointId}: ${d.status}, ${d.attemptCount} attempt(s)${d.lastStatusCode ? `, last HTTP ${d.lastStatusCode}` : ""}`;
const dryPrefix = (dryRun: boolean) => (dryRun ? "Dry run, nothing was written. Would result in: " : "");

/** A result carrying a fresh secret: kept for idempotent replays without the secret. */
function withoutSecret(result: CallToolResult): CallToolResult {
  if (result.isError || !result.structuredContent) return result;
  const structured = { ...result.structuredContent, secret: null };
  return ok(structured, REPLAY_NOTE);
}

export function registerWebhookTools(tool: ToolRegistrar<WebhookTool>) {
  const endpointId = z.string().max(64).describe("The endpoint's id (from list_webhook_endpoints)");
  // The values the API accepts (lib/webhooks/endpoint-input.ts), at least one.
  const eventTypes = z.array(z.enum([...WEBHOOK_EVENT_TYPES, "*"])).min(1).max(32);
  const eventId = z.string().max(64).describe("The event's id: a delivery's eventId, the webhook-id header");
  const endpointUrl = z.string().max(MAX_ENDPOINT_URL_LENGTH).describe(`https URL on a public address, at most ${MAX_ENDPOINT_URL_LENGTH} characters, no fragment`);
  const endpointDescription = z
    .string()
    .max(MAX_ENDPOINT_DESCRIPTION_LENGTH)
    .optional()
    .describe(`A note for the school's staff, at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters`);
  const secretOutput = {
    dryRun: z.boolean(),
    endpoint: webhookEndpointSchema,
    secret: z.string().nullable().describe("whsec_… signing secret: in this answer only; null on a dry run or a replay"),
  };
  const readAnnotations = (title: string) => ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });

  tool(
    "list_webhook_endpoints",
    {
      title: "List webhook endpoints (staff)",
      description: "Staff only. The school's webhook endpoints, oldest first, with their state. Secrets are never shown here.",
      inputSchema: {},
      outputSchema: { endpoints: z.array(webhookEndpointSchema) },
      annotations: readAnnotations("List webhook endpoints"),
    },
    async (_args, ctx) => {
      const endpoints = (await listWebhookEndpoints({ schoolId: ctx.school.id })).map(presentEndpoint);
      return ok({ endpoints }, endpoints.length ? endpoints.map((e) => `- ${describeEndpoint(e)}`).join("\n") : "The school has no webhook endpoint.");
    },
  );

  tool(
    "create_webhook_endpoint",
    {
      title: "Add a webhook endpoint (staff)",
      description: `Staff only. Registers an https URL that is sent the school's events, signed (Standard Webhooks), with the Admin API's createWebhookEndpoint rules; ${EVENTS_HELP}. Returns the whsec_ signing secret once.`,
      inputSchema: {
        url: endpointUrl,
        events: eventTypes.describe(EVENTS_HELP),
        description: endpointDescription,
        ...writeOptions,
      },
      outputSchema: secretOutput,
      annotations: writeAnnotations("Add a webhook endpoint", false, false),
    },
    async (args, ctx) => {
      const input = { url: args.url, events: args.events, description: args.description };
      return write(
        ctx,
        "create_webhook_endpoint",
        args,
        async (dryRun) => secretResult(await createWebhookEndpoint({ schoolId: ctx.school.id, input, now: ctx.now(), dryRun, actor: mcpActor(ctx) }), dryRun),
        withoutSecret,
      );
    },
  );

  tool(
    "update_webhook_endpoint",
    {
      title: "Change a webhook endpoint (staff)",
      description: `Staff only. Changes an endpoint's url, events or description (left out: unchanged); enabled false disables it, true re-enables it and resumes its pending deliveries. Admin API updateWebhookEndpoint rules; ${EVENTS_HELP}.`,
      inputSchema: {
        id: endpointId,
        url: endpointUrl.optional(),
        events: eventTypes.optional().describe(`New ${EVENTS_HELP}`),
        description: endpointDescription,
        enabled: z.boolean().optional().describe("false disables the endpoint; true re-enables it and resumes its pending deliveries"),
        ...writeOptions,
      },
      outputSchema: { dryRun: z.boolean(), endpoint: webhookEndpointSchema },
      annotations: writeAnnotations("Change a webhook endpoint", true, true),
    },
    async (args, ctx) => {
      const input = { id: args.id, url: args.url, events: args.events, description: args.description, enabled: args.enabled };
      return write(ctx, "update_webhook_endpoint", args, async (dryRun) => {
        const p = await updateWebhookEndpoint({ schoolId: ctx.school.id, input, now: ctx.now(), dryRun, actor: mcpActor(ctx) });
        if (!p.record) return fail(p.errors.join("\n"));
        const endpoint = presentEndpoint(p.record);
        return ok({ dryRun, endpoint }, `${dryPrefix(dryRun)}${describeEndpoint(endpoint)}`);
      });
    },
  );

  tool(
    "delete_webhook_endpoint",
    {
      title: "Delete a webhook endpoint (staff)",
      description: "Staff only. Deletes an endpoint with its deliveries and their attempts; the events stay. Cannot be undone.",
      inputSchema: { id: endpointId, ...writeOptions },
      outputSchema: { dryRun: z.boolean(), deletedId: z.string() },
      annotations: writeAnnotations("Delete a webhook endpoint", true, true),
    },
    async (args, ctx) => {
      return write(ctx, "delete_webhook_endpoint", args, async (dryRun) => {
        const p = await deleteWebhookEndpoint({ schoolId: ctx.school.id, id: args.id, now: ctx.now(), dryRun, actor: mcpActor(ctx) });
        if (!p.record) return fail(p.errors.join("\n"));
        return ok({ dryRun, deletedId: p.record.id }, `${dryPrefix(dryRun)}webhook endpoint ${p.record.id} deleted`);
      });
    },
  );

  tool(
    "rotate_webhook_secret",
    {
      title: "Rotate a webhook endpoint's secret (staff)",
      description:
        "Staff only. Replaces the endpoint's signing secret with a new one, returned once; for 24 hours the old secret also signs, so the receiver can switch without losing a delivery.",
      inputSchema: { id: endpointId, ...writeOptions },
      outputSchema: secretOutput,
      annotations: writeAnnotations("Rotate a webhook secret", true, false),
    },
    async (args, ctx) => {
      return write(
        ctx,
        "rotate_webhook_secret",
        args,
        async (dryRun) => secretResult(await rotateWebhookSecret({ schoolId: ctx.school.id, id: args.id, now: ctx.now(), dryRun, actor: mcpActor(ctx) }), dryRun),
        withoutSecret,
      );
    },
  );

  tool(
    "list_webhook_deliveries",
    {
      title: "List webhook deliveries (staff)",
      description:
        "Staff only. The school's deliveries, newest first, each with its attempts (status, duration, response code) and next retry; filter by endpointId, eventId or status (pending, succeeded, failed); first: 1 to 100 (default 50).",
      inputSchema: {
        endpointId: endpointId.optional().describe("Only deliveries to this endpoint (from list_webhook_endpoints)"),
        eventId: eventId.optional().describe("Only deliveries of this event (the webhook-id header)"),
        status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional().describe("Only deliveries in this status"),
        first: pageSizeInput,
      },
      outputSchema: { deliveries: z.array(webhookDeliverySchema) },
      annotations: readAnnotations("List webhook deliveries"),
    },
    async (args, ctx) => {
      try {
        const deliveries = (await listWebhookDeliveries({ schoolId: ctx.school.id, filter: args })).map(presentDelivery);
        return ok({ deliveries }, deliveries.length ? deliveries.map((d) => `- ${describeDelivery(d)}`).join("\n") : "No delivery matches.");
      } catch (err) {
        if (err instanceof QueryInputError) return fail(err.message);
        throw err;
      }
    },
  );

  tool(
    "redeliver_webhook_event",
    {
      title: "Send a webhook event again (staff)",
      description:
        "Staff only. Queues an event again now: to endpointId, or to every enabled endpoint receiving its type. The webhook-id stays the event's id, so receivers see a duplicate, never a new event.",
      inputSchema: {
        eventId,
        endpointId: endpointId.optional().describe("Send only to this endpoint; omitted: to every enabled endpoint receiving the event's type"),
        ...writeOptions,
      },
      outputSchema: { dryRun: z.boolean(), deliveries: z.array(webhookDeliverySchema) },
      annotations: writeAnnotations("Send a webhook event again", false, false),
    },
    async (args, ctx) => {
      const input = { eventId: args.eventId, endpointId: args.endpointId };
      return write(ctx, "redeliver_webhook_event", args, async (dryRun) => {
        const p = await redeliverWebhookEvent({ schoolId: ctx.school.id, input, now: ctx.now(), dryRun, actor: mcpActor(ctx) });
        if (!p.record) return fail(p.errors.join("\n"));
        const deliveries = p.record.map(presentDelivery);
        return ok({ dryRun, deliveries }, `${dryPrefix(dryRun)}queued:\n${deliveries.map((d) => `- ${describeDelivery(d)}`).join("\n")}`);
      });
    },
  );
}

/** create/rotate: the endpoint and, unless a dry run (whose secret was rolled back with it), the new secret. */
function secretResult(p: { errors: string[]; record: { endpoint: Parameters<typeof presentEndpoint>[0]; secret: string } | null }, dryRun: boolean): CallToolResult {
  if (!p.record) return fail(p.errors.join("\n"));
  const endpoint = presentEndpoint(p.record.endpoint);
  const secret = dryRun ? null : p.record.secret;
  const note = dryRun ? "" : `\nSigning secret: ${secret}\n${SECRET_NOTE}`;
  return ok({ dryRun, endpoint, secret }, `${dryPrefix(dryRun)}${describeEndpoint(endpoint)}${note}`);
}
