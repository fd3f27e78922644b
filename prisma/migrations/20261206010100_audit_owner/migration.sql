-- Issue 34 (kill -9 in a bulk move): a PENDING audit row names the process running its work, so the
-- audit.interrupted-sweep job can tell a row whose process died (its 'audit.owner' advisory lock is free) and finish
-- it as INTERRUPTED instead of leaving it PENDING forever (ADR 35). Rows written before this stay unowned.
ALTER TABLE "audit_event" ADD COLUMN "owner" TEXT;

CREATE INDEX "audit_event_outcome_owner_idx" ON "audit_event"("outcome", "owner");
