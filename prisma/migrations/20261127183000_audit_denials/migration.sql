-- Denials (403, the cluster guard's 404, 409, CSRF) are audited as DENIED rows, one per (principal, route, reason,
-- cluster, window): the first refusal of a key inserts the row, later ones add to its count in the same statement
-- (INSERT … ON CONFLICT (dedup_key) DO UPDATE), so several web instances share one row per key and a flood of
-- refusals cannot flood the log. Every other row keeps count 1 and no key.
ALTER TABLE "audit_event" ADD COLUMN "count" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "audit_event" ADD COLUMN "dedup_key" TEXT;
CREATE UNIQUE INDEX "audit_event_dedup_key_key" ON "audit_event"("dedup_key");
