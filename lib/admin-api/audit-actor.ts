import type { AuditActor } from "../db/audit";
import { requestAuditFacts } from "../tenancy/request-context";
import type { AdminContext } from "./context";

/** The audit log's actor of an Admin API request: its API key (name, id), request id and client address. */
export function adminActor(ctx: Pick<AdminContext, "credential" | "request">): AuditActor {
  const { credential } = ctx;
  return { type: "api_key", id: credential.id, label: credential.name, credentialId: credential.id, ...requestAuditFacts(ctx.request) };
}
