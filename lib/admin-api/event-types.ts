// The Admin API's `eventTypes` query: every webhook event type and its payload's shape, field by
// field. `data`'s fields are read from this schema's own types (the payload is the Admin API's wire
// shape), so the description cannot drift from what the API returns.
import { getNamedType, isListType, isNonNullType, isObjectType, type GraphQLOutputType, type GraphQLSchema } from "graphql";
import { EVENT_ENVELOPE, OMITTED_DATA_FIELDS, WEBHOOK_EVENT_CATALOGUE } from "../webhooks/event-catalogue";
import { WEBHOOK_EVENT_TYPES } from "../db/outbox";

export const eventTypesTypeDefs = /* GraphQL */ `
  extend type Query {
    "Every webhook event type and the shape of its delivery body, field by field. Needs only a valid API key."
    eventTypes: [WebhookEventType!]!
  }

  "A webhook event type: when it is sent and what its body holds."
  type WebhookEventType {
    "The event type, as endpoints subscribe to it (events) and as the body's type says."
    type: String!
    "When the event is sent."
    description: String!
    "The Admin API type the body's data field holds."
    dataType: String!
    "Every field of the body, objects first and their fields after them (data.plan, data.plan.id, …)."
    fields: [WebhookEventField!]!
  }

  "One field of a webhook delivery body."
  type WebhookEventField {
    "Dotted path from the body's top level, e.g. data.user.email."
    path: String!
    "GraphQL type notation: String!, Int (nullable), [Payment!]!."
    type: String!
    "What the field holds; empty where the Admin API's type has no description."
    description: String!
  }
`;

interface EventField {
  path: string;
  type: string;
  description: string;
}

function fieldsOf(schema: GraphQLSchema, typeName: string, prefix: string, seen: readonly string[]): EventField[] {
  const type = schema.getType(typeName);
  if (!isObjectType(type)) return [];
  const omitted = OMITTED_DATA_FIELDS[typeName] ?? [];
  return Object.values(type.getFields())
    .filter((f) => !omitted.includes(f.name))
    .flatMap((f) => {
      const path = `${prefix}.${f.name}`;
      const own = { path, type: String(f.type), description: f.description ?? "" };
      const inner = getNamedType(f.type as GraphQLOutputType);
      // Nested objects are described in place; a type already on the path (a cycle) is not expanded again.
      const nested = isObjectType(inner) && !seen.includes(inner.name) && !isListOf(f.type) ? fieldsOf(schema, inner.name, path, [...seen, inner.name]) : [];
      return [own, ...nested];
    });
}

function isListOf(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

const catalogues = new WeakMap<GraphQLSchema, unknown>();

function catalogue(schema: GraphQLSchema) {
  let list = catalogues.get(schema);
  if (!list) {
    list = WEBHOOK_EVENT_TYPES.map((type) => {
      const { description, dataType } = WEBHOOK_EVENT_CATALOGUE[type];
      const data = { path: "data", type: `${dataType}!`, description: `The ${dataType} the event is about, as the Admin API presents it.` };
      return { type, description, dataType, fields: [...EVENT_ENVELOPE, data, ...fieldsOf(schema, dataType, "data", [dataType])] };
    });
    catalogues.set(schema, list);
  }
  return list;
}

export const eventTypesResolvers = {
  Query: {
    eventTypes: (_: unknown, __: unknown, ___: unknown, info: { schema: GraphQLSchema }) => catalogue(info.schema),
  },
};
