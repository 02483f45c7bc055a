// The Admin API's school-wide reads of money and history: `payments` and `auditEvents`. A block of
// its own (like member-queries.ts) over the verbs the MCP staff tools call too; same permission
// rule, page sizes, cursors and cost accounting as `subscriptions`.
import { listAuditEvents, presentAuditEvent, type AuditEventFilter } from "../audit/list-audit-events";
import { listSchoolPayments, type SchoolPaymentFilter } from "../billing/list-school-payments";
import { presentPayment } from "../membership/presenter";
import type { AdminContext } from "./context";
import { inputError, requireQueryPermission } from "./query-guards";

export const auditQueriesTypeDefs = /* GraphQL */ `
  extend type Query {
    "The school's payments (every attempt to collect a period, and payments recorded by the school), newest first, a page at a time: pass pageInfo.endCursor as after for the next page."
    payments(
      "Page size: 1 to 100 (default 50); the operation's cost is counted with it."
      first: Int
      "The endCursor of the previous page; omit it for the first page."
      after: String
      "Only payments in this state: pending, succeeded, failed or refunded."
      state: String
      "Only this member's payments (a Member id)."
      userId: String
      "Only this subscription's payments (a Subscription id)."
      subscriptionId: String
      "Only payments recorded at or after this time (Unix seconds)."
      since: Int
      "Only payments recorded before this time (Unix seconds)."
      until: Int
    ): PaymentConnection
    "The school's audit log: every change made by staff, API keys, agents, the command line or the platform's jobs, newest first, a page at a time: pass pageInfo.endCursor as after for the next page. Rows are kept for 400 days."
    auditEvents(
      "Page size: 1 to 100 (default 50); the operation's cost is counted with it."
      first: Int
      "The endCursor of the previous page; omit it for the first page."
      after: String
      "Only changes by this kind of actor: member, api_key, oauth_client, system or cli."
      actorType: String
      "Only this action, e.g. subscription.cancel or webhook_endpoint.rotate_secret."
      action: String
      "Only changes to this target (a subscription, payment, member, enrollment, webhook endpoint, API key or OAuth client id)."
      targetId: String
      "Only changes made at or after this time (Unix seconds)."
      since: Int
      "Only changes made before this time (Unix seconds)."
      until: Int
    ): AuditEventConnection
  }

  "A page of payments."
  type PaymentConnection {
    "The payments of this page, newest first."
    nodes: [Payment!]!
    "Whether more pages follow, and the cursor to ask for the next one."
    pageInfo: PageInfo!
  }

  "One change in the school's audit log: who made it, with which credential, to what, and what changed."
  type AuditEvent {
    "The audit row's id."
    id: String!
    "Who made the change: member (a signed-in member), api_key (the Admin API or MCP with a key), oauth_client (an app acting for a member through MCP), system (renewals, time rules) or cli (a command on the server)."
    actorType: String!
    "The actor's id: the member's user id, the API key's id or the OAuth client's client_id; null for system and cli."
    actorId: String
    "A readable name of the actor: an email, an API key's name, '<email> via <client_id>', a job's name or the command and OS user."
    actorLabel: String!
    "The credential used: the API key id, the OAuth grant id or the member's session id; null for system and cli."
    credentialId: String
    "What was done, as <target>.<verb>: subscription.create, subscription.cancel, payment.refund, webhook_endpoint.rotate_secret, api_key.revoke, …"
    action: String!
    "The kind of thing changed: subscription, payment, enrollment, member, webhook_endpoint, webhook_event, api_key or oauth_client."
    targetType: String!
    "The id of the thing changed."
    targetId: String
    "What changed, as a JSON object: { field: { from, to } } for changed fields, or the facts of a creation. Never a secret (secret-named fields read [redacted])."
    summary: String!
    "The request's id (the front proxy's X-Request-Id behind a trusted proxy, else generated); null for system and cli."
    requestId: String
    "The client's address (behind a trusted proxy, the first X-Forwarded-For entry); null when unknown."
    ip: String
    "When the change was made (Unix seconds)."
    createdAt: Int!
  }

  "A page of audit rows."
  type AuditEventConnection {
    "The audit rows of this page, newest first."
    nodes: [AuditEvent!]!
    "Whether more pages follow, and the cursor to ask for the next one."
    pageInfo: PageInfo!
  }
`;

export const auditQueriesResolvers = {
  Query: {
    payments: (_: unknown, args: SchoolPaymentFilter, ctx: AdminContext) => {
      requireQueryPermission(ctx, "payments");
      return inputError(async () => {
        const page = await listSchoolPayments({ schoolId: ctx.credential.schoolId, filter: args });
        return { nodes: page.nodes.map(presentPayment), pageInfo: page.pageInfo };
      });
    },
    auditEvents: (_: unknown, args: AuditEventFilter, ctx: AdminContext) => {
      requireQueryPermission(ctx, "auditEvents");
      return inputError(async () => {
        const page = await listAuditEvents({ schoolId: ctx.credential.schoolId, filter: args });
        return { nodes: page.nodes.map(presentAuditEvent), pageInfo: page.pageInfo };
      });
    },
  },
};
