import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { School } from "../db/generated/client";
import { UNAUTHORIZED } from "../credentials/permissions";
import type { BuildContext } from "../storefront/build";
import { TOOL_ACCESS, type ToolName } from "./access";
import type { McpCaller } from "./authenticate";
import type { AuditActor } from "../db/audit";

/** What every tool of one /mcp request sees. */
export interface McpContext {
  caller: McpCaller;
  school: School;
  /** This school's origin (the issuer): absolute URLs and the resource identifier. */
  origin: string;
  now: () => Date;
  /** The request's id and client address, for the audit log (lib/tenancy/request-context.ts, requestAuditFacts). */
  request: { requestId: string; ip: string | null };
  /** Set by a tool that met a database outage: the request is then answered 503 + Retry-After. */
  outage?: boolean;
}

const CONTEXT_KEY = "schoolhouse/mcp-context";

/**
 * The request's context as the SDK carries it to every handler of that request's messages
 * (`extra.authInfo`): the McpServer is reused across requests (lib/mcp/server-pool.ts), so tools
 * must never read the caller from anything but the message they are answering.
 */
export function authInfoOf(ctx: McpContext): AuthInfo {
  const { caller } = ctx;
  return {
    token: "",
    clientId: caller.kind === "api_key" ? `api_key:${caller.credential.id}` : `grant:${caller.grantId}`,
    scopes: caller.kind === "member" ? [...caller.scopes] : [],
    extra: { [CONTEXT_KEY]: ctx },
  };
}

/** The context of the request a message came with; a message without one is a bug, never a default caller. */
export function contextOf(extra: { authInfo?: AuthInfo }): McpContext {
  const ctx = extra.authInfo?.extra?.[CONTEXT_KEY] as McpContext | undefined;
  if (!ctx) throw new Error("mcp: a message arrived without its request's context");
  return ctx;
}

/**
 * The audit log's actor of a write tool: an agent acting through a member's OAuth grant is its OAuth
 * client (label "<email> via <client_id>", credential the grant); an Admin API key is itself.
 */
export function mcpActor(ctx: McpContext): AuditActor {
  const { caller } = ctx;
  if (caller.kind === "api_key") {
    return { type: "api_key", id: caller.credential.id, label: caller.credential.name, credentialId: caller.credential.id, ...ctx.request };
  }
  return { type: "oauth_client", id: caller.clientId, label: `${caller.user.email} via ${caller.clientId}`, credentialId: caller.grantId, ...ctx.request };
}

export const buildContext = (ctx: McpContext): BuildContext => ({ school: ctx.school, origin: ctx.origin, now: ctx.now() });

/**
 * Why the caller may not run this tool, or null when it may. The scope is also checked over HTTP
 * (403, so clients can step up); a role or an API key's permission cannot be fixed by signing in
 * again, so they are tool errors the model can explain.
 */
export function refusal(ctx: McpContext, tool: ToolName): string | null {
  const access = TOOL_ACCESS[tool];
  const { caller } = ctx;
  if (caller.kind === "api_key") {
    if (access.apiKey === null) {
      return `${tool} acts for a signed-in member; an Admin API key acts for the school, not a person. Sign in with OAuth to use it.`;
    }
    if (access.apiKey === "any") return null;
    return caller.credential.permissions.includes(access.apiKey) ? null : UNAUTHORIZED;
  }
  if (access.scope && !caller.scopes.has(access.scope)) return `${tool} needs the ${access.scope} scope; sign in again and grant it.`;
  if (access.staff && !caller.isStaff) return `${tool} is for staff: it needs the owner, manager or admin role at ${ctx.school.name}.`;
  return null;
}
