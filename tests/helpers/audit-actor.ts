import type { AuditActor } from "@/lib/db/audit";

/** The actor of writes a test makes directly (fixtures): a command, like the CLI's. */
export const TEST_ACTOR: AuditActor = { type: "cli", id: null, label: "test fixture", credentialId: null, requestId: null, ip: null };
