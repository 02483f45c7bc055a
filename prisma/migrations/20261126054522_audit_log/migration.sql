-- CreateEnum
CREATE TYPE "AuditActorType" AS ENUM ('member', 'api_key', 'oauth_client', 'system', 'cli');

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" UUID NOT NULL,
    "schoolId" UUID NOT NULL,
    "actorType" "AuditActorType" NOT NULL,
    "actorId" TEXT,
    "actorLabel" TEXT NOT NULL,
    "credentialId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT,
    "summary" JSONB NOT NULL,
    "requestId" TEXT,
    "ip" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEvent_schoolId_createdAt_id_idx" ON "AuditEvent"("schoolId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_schoolId_actorType_createdAt_id_idx" ON "AuditEvent"("schoolId", "actorType", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_schoolId_action_createdAt_id_idx" ON "AuditEvent"("schoolId", "action", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_schoolId_targetId_createdAt_id_idx" ON "AuditEvent"("schoolId", "targetId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- CreateIndex
CREATE INDEX "Payment_schoolId_createdAt_id_idx" ON "Payment"("schoolId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Payment_schoolId_state_createdAt_id_idx" ON "Payment"("schoolId", "state", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "School"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Append-only (docs/decisions.md, "Audit log"): no UPDATE ever; DELETE only by the retention purge,
-- which sets schoolhouse.audit_purge for its own transaction (SET LOCAL), or by a deleted school's
-- cascade (the foreign key's trigger runs the DELETE, so the trigger depth is above 1).
CREATE FUNCTION "refuse_audit_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (current_setting('schoolhouse.audit_purge', true) = 'on' OR pg_trigger_depth() > 1) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'AuditEvent is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "AuditEvent_append_only"
    BEFORE UPDATE OR DELETE ON "AuditEvent"
    FOR EACH ROW EXECUTE FUNCTION "refuse_audit_change"();
