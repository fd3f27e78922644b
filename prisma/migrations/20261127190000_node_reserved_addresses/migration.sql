-- The broker's own management and notification addresses per node, read by the tier-A poll, so that sends and
-- moves to them are refused (issue 25, item 2).
ALTER TABLE "cluster_node" ADD COLUMN "management_address" TEXT;
ALTER TABLE "cluster_node" ADD COLUMN "notification_address" TEXT;
