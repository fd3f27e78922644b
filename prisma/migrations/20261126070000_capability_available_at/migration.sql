-- When each capability of a cluster was last seen AVAILABLE: alerting's capability-lost condition reads a loss from
-- the ledger itself (a capability not AVAILABLE that has been), so no process needs to remember the verdict before.
ALTER TABLE "cluster_capability" ADD COLUMN "available_at" TIMESTAMPTZ(3);
UPDATE "cluster_capability" SET "available_at" = "checked_at" WHERE "value" = 'AVAILABLE';
